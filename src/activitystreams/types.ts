// Output types of the ActivityStreams mappers: the resources of service-spec.md "Resources and
// their fields". Optional members are omitted (never null) when the platform did not send them.

export type MapContext = {
  /** Canonical platform origin for ids and urls, e.g. 'https://www.tiktok.com'. */
  webOrigin: string;
  /** `tt_chain_token` of the identity that fetched the data; media URLs need it as a cookie. */
  chainToken: string | undefined;
};

/** 'tag' = the tag-videos response variant of the spec (entityId, content, mediaCount, …). */
export type Dialect = 'standard' | 'tag';

export type Image = { type: 'Image'; url: string; width?: number; height?: number };

export type Link = { type: 'Link'; href: string; rel?: string };

export type Place = { type: 'Place'; name: string };

export type Tag = {
  type: 'Tag';
  id: string;
  name: string;
  href: string;
  internalId?: string;
  entityId?: string;
};

/** One rendition of a video (or a live stream); `headers` are what a client sends to fetch it. */
export type MediaFile = {
  type: 'Video';
  name: string;
  url: string[];
  mediaType: string;
  codec?: string;
  width?: number;
  height?: number;
  bitrate?: number;
  headers?: Record<string, string>;
};

export type Person = {
  type: 'Person';
  id: string;
  url: string;
  preferredUsername: string;
  name?: string;
  summary?: string;
  userId?: string;
  internalId?: string;
  entityId?: string;
  isPrivate?: boolean;
  isVerified?: boolean;
  isLive?: boolean;
  published?: string;
  hasLikes?: boolean;
  hasPlaylists?: boolean;
  followerCount?: number;
  followingCount?: number;
  likeCount?: number;
  videoCount?: number;
  mediaCount?: number;
  likedCount?: number;
  language?: string;
  attachment?: Link[];
  icon?: Image;
  image?: Image[];
};

/** The author of a sound: the platform gives only a display name. */
export type AudioAuthor = { type: 'Person'; name: string };

export type Audio = {
  type: 'Audio';
  id: string;
  url: string;
  name?: string;
  mediaType?: string;
  duration?: number;
  album?: string;
  videoCount?: number;
  entityId?: string;
  isOriginal?: boolean;
  isCopyrighted?: boolean;
  attributedTo?: AudioAuthor;
  icon?: Image;
  image?: Image[];
};

export type Video = {
  type: 'Video';
  id: string;
  url: string;
  internalId?: string;
  entityId?: string;
  published?: string;
  summary?: string;
  content?: string;
  language?: string;
  isSponsored?: boolean;
  location?: Place;
  duration?: number;
  viewCount?: number;
  likeCount?: number;
  commentCount?: number;
  repostCount?: number;
  shareCount?: number;
  saveCount?: number;
  attributedTo: Person;
  tag?: Tag[];
  audio?: Audio;
  image?: Image;
  preview?: Image;
  icon?: Image;
  /** Renditions of a video; the photos of a photo post are Image attachments instead. */
  attachment?: Array<MediaFile | Image>;
};

export type Note = {
  type: 'Note';
  id: string;
  url: string;
  internalId: string;
  content: string;
  published?: string;
  likeCount?: number;
  replyCount?: number;
  language?: string;
  status?: string;
  isPinned: boolean;
  isLiked: boolean;
  attributedTo: Person;
  inReplyTo: string;
};

export type OrderedCollection = {
  type: 'OrderedCollection';
  id: string;
  internalId: string;
  name?: string;
  totalItems?: number;
  attributedTo?: Person;
  image?: Image;
};

export type LiveVideo = {
  type: 'Video';
  id: string;
  url: string;
  internalId?: string;
  isLive: true;
  summary?: string;
  published?: string;
  viewCount?: number;
  viewerCount?: number;
  attributedTo?: Person;
  image?: Image;
  attachment?: MediaFile[];
};

export type Document = {
  type: 'Document';
  id: string;
  url: string;
  mediaType: 'text/vtt';
  language: string;
  content: string;
  size: number;
  source?: string;
};

export type OrderedCollectionPage<T> = {
  type: 'OrderedCollectionPage';
  partOf: string;
  totalItems: number;
  itemCount: number;
  cursor: string;
  nextCursor?: string;
  next?: string;
  orderedItems: T[];
};
