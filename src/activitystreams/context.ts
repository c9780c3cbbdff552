// The JSON-LD context document served at the social namespace URL: it defines every term reelay
// emits beyond ActivityStreams 2.0, so a JSON-LD processor expands each field to a real IRI.

const INTEGER = 'xsd:integer';
const BOOLEAN = 'xsd:boolean';

/** Term name → its value type (`undefined` = plain string). */
export const SOCIAL_TERMS: Readonly<Record<string, string | undefined>> = {
  internalId: undefined,
  entityId: undefined,
  userId: undefined,
  language: undefined,
  status: undefined,
  codec: undefined,
  album: undefined,
  cursor: undefined,
  nextCursor: undefined,
  viewCount: INTEGER,
  likeCount: INTEGER,
  commentCount: INTEGER,
  repostCount: INTEGER,
  shareCount: INTEGER,
  saveCount: INTEGER,
  replyCount: INTEGER,
  followerCount: INTEGER,
  followingCount: INTEGER,
  videoCount: INTEGER,
  mediaCount: INTEGER,
  likedCount: INTEGER,
  viewerCount: INTEGER,
  itemCount: INTEGER,
  bitrate: INTEGER,
  size: INTEGER,
  isPrivate: BOOLEAN,
  isVerified: BOOLEAN,
  isLive: BOOLEAN,
  hasLikes: BOOLEAN,
  hasPlaylists: BOOLEAN,
  isSponsored: BOOLEAN,
  isOriginal: BOOLEAN,
  isCopyrighted: BOOLEAN,
  isPinned: BOOLEAN,
  isLiked: BOOLEAN,
  // The sound of a video: a node (Audio) like AS2's image/icon.
  audio: '@id',
  // HTTP headers are an opaque JSON map, not RDF statements.
  headers: '@json',
};

/** Classes reelay uses that ActivityStreams 2.0 does not define. */
export const SOCIAL_TYPES: readonly string[] = ['Tag'];

/** Term IRIs are `<ns>#term`, or `<ns>term` when the namespace already ends in '#' or '/'. */
export function socialIri(nsUrl: string, term: string): string {
  return /[#/]$/.test(nsUrl) ? `${nsUrl}${term}` : `${nsUrl}#${term}`;
}

export function socialContext(nsUrl: string): { '@context': Record<string, unknown> } {
  const context: Record<string, unknown> = {
    '@version': 1.1,
    xsd: 'http://www.w3.org/2001/XMLSchema#',
  };
  for (const type of SOCIAL_TYPES) context[type] = socialIri(nsUrl, type);
  for (const [term, type] of Object.entries(SOCIAL_TERMS)) {
    const id = socialIri(nsUrl, term);
    context[term] = type === undefined ? id : { '@id': id, '@type': type };
  }
  return { '@context': context };
}
