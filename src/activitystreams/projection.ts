// Projection presets: cut a mapped resource or page down for callers that pay per byte (agents).
// full = as mapped; standard = no image sets, no previews, one rendition per codec; minimal = what an
// agent reasons and pages with, each object named by the id a tool takes. Rules: docs/projection.md.

export type Preset = 'minimal' | 'standard' | 'full';

/**
 * Dropped from every object in minimal: files, image sets, fetch headers and web URLs. `id` is the
 * object's web page; minimal names objects by the platform id or username the tools take instead.
 */
const MINIMAL_MEDIA = new Set(['attachment', 'image', 'icon', 'preview', 'headers', 'url', 'href', 'id']);
/**
 * Members an agent does not act on: the anonymous reader's own like (always false), the platform's
 * comment status code, what the request itself named (`inReplyTo`), the language of text it reads.
 */
const MINIMAL_NOISE = new Set(['isLiked', 'status', 'inReplyTo', 'language']);
/** Platform ids of a person: every tool names a person by username, so these are redundant there. */
const PERSON_IDS = new Set(['internalId', 'entityId', 'userId']);
/** Members of the answer that are not objects of the platform: kept as they are. */
const VERBATIM = new Set(['@context']);
/** Nesting is bounded by the mappers (page → item → person/audio → image); this is a guard. */
const DEPTH_MAX = 16;

/** Where a member sits, for the minimal rule: in a resource (the answer, a page item) or an object inside one. */
export type MemberPlace = { nested: boolean; isPerson: boolean; isFile: boolean };

const RESOURCE: MemberPlace = { nested: false, isPerson: false, isFile: false };

/**
 * The rule, stated once for the schemas (schema-presets.ts derives each preset's schema from it):
 * whether `preset` drops the member `key` (`isArray`: its value is an array) at `place`. A dropped
 * member is absent, never null or empty. project() below applies the same rule to values.
 */
export function dropsMember(preset: Preset, key: string, isArray: boolean, place: MemberPlace = RESOURCE): boolean {
  if (preset === 'standard') return key === 'preview' || (key === 'image' && isArray);
  if (preset !== 'minimal') return false;
  // An object inside a resource is a reference: its type and its handle.
  if (place.nested) return !(key === 'type' || (place.isPerson ? key === 'preferredUsername' : key === 'name'));
  if (MINIMAL_MEDIA.has(key) || MINIMAL_NOISE.has(key) || (place.isPerson && PERSON_IDS.has(key))) return true;
  // The text of a file (a transcript's WebVTT) is the file itself, dropped like any attachment.
  return key === 'content' && place.isFile;
}

export function project(data: unknown, preset: Preset): unknown {
  if (preset === 'full') return data;
  if (preset === 'minimal') return minimalResource(data);
  return walk(data, 0);
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A resource (the answer, or an item of a page's `orderedItems`) keeps its own members; objects
 * inside it (author, sound, hashtags, place) become references.
 */
function minimalResource(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(minimalResource);
  if (!isObject(value)) return value;
  const place: MemberPlace = { nested: false, isPerson: typeof value.preferredUsername === 'string', isFile: 'mediaType' in value };
  const out: Json = {};
  for (const [key, member] of Object.entries(value)) {
    if (dropsMember('minimal', key, Array.isArray(member), place)) continue;
    if (key === 'orderedItems') out[key] = Array.isArray(member) ? member.map(minimalResource) : member;
    else if (VERBATIM.has(key)) out[key] = member;
    else out[key] = Array.isArray(member) ? member.map(reference) : reference(member);
  }
  return out;
}

/** A nested object as its type and handle: a person's username, else its name (tag, sound, place). */
function reference(value: unknown): unknown {
  if (!isObject(value)) return value;
  const out: Json = {};
  if (value.type !== undefined) out.type = value.type;
  if (typeof value.preferredUsername === 'string') out.preferredUsername = value.preferredUsername;
  else if (value.name !== undefined) out.name = value.name;
  return out;
}

function walk(value: unknown, depth: number): unknown {
  if (depth > DEPTH_MAX) return value;
  if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (dropsMember('standard', key, Array.isArray(member))) continue;
    if (key === 'attachment' && Array.isArray(member)) {
      out[key] = bestPerCodec(member);
      continue;
    }
    out[key] = walk(member, depth + 1);
  }
  return out;
}

/**
 * Keeps, per media type and codec, the rendition with the highest bitrate (the first one when
 * none has a bitrate, since the platform lists best first). Non-video attachments stay.
 */
function bestPerCodec(attachments: unknown[]): unknown[] {
  const best = new Map<string, Record<string, unknown>>();
  const kept: unknown[] = [];
  for (const item of attachments) {
    if (!isRendition(item)) {
      kept.push(item);
      continue;
    }
    const key = `${String(item.mediaType)}|${String(item.codec ?? '')}`;
    const current = best.get(key);
    if (!current) {
      best.set(key, item);
      kept.push(item);
    } else if (bitrate(item) > bitrate(current)) {
      best.set(key, item);
      kept[kept.indexOf(current)] = item;
    }
  }
  return kept;
}

function isRendition(item: unknown): item is Record<string, unknown> {
  return typeof item === 'object' && item !== null && (item as Record<string, unknown>).type === 'Video';
}

function bitrate(item: Record<string, unknown>): number {
  return typeof item.bitrate === 'number' ? item.bitrate : -1;
}
