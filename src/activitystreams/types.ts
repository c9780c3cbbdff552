// Output types of the ActivityStreams mappers: the resources of service-spec.md "Resources and
// their fields", inferred from their zod schemas (schemas.ts). Presence rules: docs/contract.md.
import type { z } from 'zod';
import type * as S from './schemas.ts';

export type MapContext = {
  /** Canonical platform origin for ids and urls, e.g. 'https://www.tiktok.com'. */
  webOrigin: string;
  /** `tt_chain_token` of the identity that fetched the data; media URLs need it as a cookie. */
  chainToken: string | undefined;
};

/** 'tag' = the tag-videos response variant of the spec (entityId, content, mediaCount, …). */
export type Dialect = 'standard' | 'tag';

export type Image = z.infer<typeof S.ImageSchema>;
export type Link = z.infer<typeof S.LinkSchema>;
export type Place = z.infer<typeof S.PlaceSchema>;
export type StandardTag = z.infer<typeof S.TagSchema>;
export type TagDialectTag = z.infer<typeof S.TagTagDialectSchema>;
/** A hashtag, in either dialect. */
export type Tag = StandardTag | TagDialectTag;
/** One rendition of a video (or a live stream); `headers` are what a client sends to fetch it. */
export type MediaFile = z.infer<typeof S.MediaFileSchema>;
export type StandardPerson = z.infer<typeof S.PersonSchema>;
export type TagDialectPerson = z.infer<typeof S.PersonTagDialectSchema>;
export type Person = StandardPerson | TagDialectPerson;
/** The author of a sound: the platform gives only a display name. */
export type AudioAuthor = z.infer<typeof S.AudioAuthorSchema>;
export type StandardAudio = z.infer<typeof S.AudioSchema>;
export type TagDialectAudio = z.infer<typeof S.AudioTagDialectSchema>;
export type Audio = StandardAudio | TagDialectAudio;
export type StandardVideo = z.infer<typeof S.VideoSchema>;
export type TagDialectVideo = z.infer<typeof S.VideoTagDialectSchema>;
export type Video = StandardVideo | TagDialectVideo;
export type Note = z.infer<typeof S.NoteSchema>;
export type OrderedCollection = z.infer<typeof S.PlaylistSchema>;
export type LiveVideo = z.infer<typeof S.LiveVideoSchema>;
export type Document = z.infer<typeof S.TranscriptSchema>;

/** Generic over the item type; the named page schemas (VideoPageSchema, …) are its instances. */
export type OrderedCollectionPage<T> = Omit<z.infer<typeof S.PersonPageSchema>, '@context' | 'orderedItems'> & { orderedItems: T[] };
