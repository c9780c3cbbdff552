// A small checker of mapped output against service-spec.md "Resources and their fields": every
// member must be a field the spec lists for that resource, with the spec's JSON type.

type Kind =
  | 'string' | 'url' | 'int' | 'bool' | 'timestamp' | 'urls' | 'headers' | 'context'
  | 'Person' | 'Image' | 'Images' | 'Tags' | 'Audio' | 'Place' | 'Links' | 'Attachments' | 'Items';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const common = { '@context': 'context', type: 'string' } as const;
const VIDEO: Record<string, Kind> = {
  ...common, id: 'url', url: 'url', internalId: 'string', entityId: 'string', published: 'timestamp',
  viewCount: 'int', likeCount: 'int', commentCount: 'int', repostCount: 'int', shareCount: 'int', saveCount: 'int',
  attributedTo: 'Person', summary: 'string', content: 'string', duration: 'int', language: 'string',
  isSponsored: 'bool', location: 'Place', tag: 'Tags', attachment: 'Attachments', image: 'Image',
  preview: 'Image', audio: 'Audio', icon: 'Image', isLive: 'bool', viewerCount: 'int',
};

export const SPEC_FIELDS: Record<string, Record<string, Kind>> = {
  OrderedCollectionPage: {
    ...common, partOf: 'url', totalItems: 'int', itemCount: 'int', orderedItems: 'Items', cursor: 'string',
    nextCursor: 'string', next: 'url',
  },
  Video: VIDEO,
  MediaFile: {
    type: 'string', name: 'string', url: 'urls', mediaType: 'string', codec: 'string', width: 'int', height: 'int',
    bitrate: 'int', headers: 'headers',
  },
  Audio: {
    type: 'string', name: 'string', duration: 'int', id: 'url', url: 'url', mediaType: 'string', attributedTo: 'Person',
    icon: 'Image', image: 'Images', album: 'string', videoCount: 'int', entityId: 'string', isOriginal: 'bool',
    isCopyrighted: 'bool',
  },
  Person: {
    ...common, id: 'url', url: 'url', isPrivate: 'bool', isVerified: 'bool', isLive: 'bool', userId: 'string',
    internalId: 'string', entityId: 'string', name: 'string', preferredUsername: 'string', summary: 'string',
    attachment: 'Links', published: 'timestamp', hasLikes: 'bool', hasPlaylists: 'bool', followerCount: 'int',
    followingCount: 'int', likeCount: 'int', videoCount: 'int', mediaCount: 'int', language: 'string',
    likedCount: 'int', icon: 'Image', image: 'Images',
  },
  Image: { type: 'string', url: 'url', width: 'int', height: 'int' },
  Link: { type: 'string', href: 'url', rel: 'string' },
  Place: { type: 'string', name: 'string' },
  Tag: { type: 'string', name: 'string', href: 'url', id: 'url', internalId: 'string', entityId: 'string' },
  Note: {
    ...common, id: 'url', url: 'url', internalId: 'string', content: 'string', likeCount: 'int', replyCount: 'int',
    attributedTo: 'Person', language: 'string', published: 'timestamp', status: 'string', isPinned: 'bool',
    isLiked: 'bool', inReplyTo: 'url',
  },
  OrderedCollection: {
    ...common, id: 'url', internalId: 'string', name: 'string', totalItems: 'int', attributedTo: 'Person', image: 'Image',
  },
  Document: {
    ...common, id: 'url', url: 'url', mediaType: 'string', language: 'string', content: 'string', size: 'int',
    source: 'string',
  },
};

/** Returns one message per violation (empty = conforms). `as` names the expected resource table. */
export function checkSpecTypes(value: unknown, as: string, path = '$'): string[] {
  const fields = SPEC_FIELDS[as];
  if (!isObject(value)) return [`${path}: expected ${as} object`];
  const errors: string[] = [];
  const expectedType = as === 'MediaFile' ? 'Video' : as;
  if (value.type !== expectedType) errors.push(`${path}.type: expected "${expectedType}", got ${JSON.stringify(value.type)}`);
  for (const [key, member] of Object.entries(value)) {
    const kind = fields[key];
    if (!kind) errors.push(`${path}.${key}: not a field of ${as} in the spec`);
    else errors.push(...checkKind(member, kind, `${path}.${key}`));
  }
  return errors;
}

function checkKind(v: unknown, kind: Kind, path: string): string[] {
  const bad = (what: string) => [`${path}: expected ${what}, got ${JSON.stringify(v)?.slice(0, 60)}`];
  switch (kind) {
    case 'string': return typeof v === 'string' ? [] : bad('string');
    case 'url': return isUrl(v) ? [] : bad('URL string');
    case 'int': return Number.isInteger(v) ? [] : bad('integer');
    case 'bool': return typeof v === 'boolean' ? [] : bad('boolean');
    case 'timestamp': return typeof v === 'string' && TIMESTAMP.test(v) ? [] : bad('timestamp');
    case 'urls': return Array.isArray(v) && v.length > 0 && v.every(isUrl) ? [] : bad('array of URL strings');
    case 'headers':
      return isObject(v) && Object.values(v).every((h) => typeof h === 'string') ? [] : bad('string map');
    case 'context':
      return Array.isArray(v) && v.length === 2 && v.every(isUrl) ? [] : bad('two namespace URLs');
    case 'Person': case 'Image': case 'Audio': case 'Place':
      return checkSpecTypes(v, kind, path);
    case 'Images': return each(v, path, () => 'Image');
    case 'Tags': return each(v, path, () => 'Tag');
    case 'Links': return each(v, path, () => 'Link');
    case 'Attachments': return each(v, path, (item) => (isObject(item) && item.type === 'Image' ? 'Image' : 'MediaFile'));
    case 'Items': return each(v, path, (item) => (isObject(item) ? String(item.type) : 'unknown'));
  }
}

function each(v: unknown, path: string, tableOf: (item: unknown) => string): string[] {
  if (!Array.isArray(v)) return [`${path}: expected array`];
  return v.flatMap((item, i) => {
    const table = tableOf(item);
    return SPEC_FIELDS[table] ? checkSpecTypes(item, table, `${path}[${i}]`) : [`${path}[${i}]: unknown item type`];
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isUrl(v: unknown): boolean {
  return typeof v === 'string' && URL.canParse(v) && /^https?:\/\//.test(v);
}
