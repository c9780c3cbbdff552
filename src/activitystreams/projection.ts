// Projection presets: cut a mapped resource or page down for callers that pay per byte (agents).
// full = as mapped; standard = no image sets, no previews, one rendition per codec; minimal = no
// media at all (ids, names, text, counts, cursors, types, timestamps). Rules: docs/projection.md.

export type Preset = 'minimal' | 'standard' | 'full';

/** Media members: URLs of files, image sets, fetch headers, renditions. `url` of a page is the id. */
const MINIMAL_DROP = new Set(['attachment', 'image', 'icon', 'preview', 'headers', 'url', 'href']);
/** Nesting is bounded by the mappers (page → item → person/audio → image); this is a guard. */
const DEPTH_MAX = 16;

/**
 * The rule, stated once: whether `preset` drops the member `key` (`isArray`: its value is an array).
 * A dropped member is absent, never null or empty; schema-presets.ts derives the schemas from it.
 */
export function dropsMember(preset: Preset, key: string, isArray: boolean): boolean {
  if (preset === 'minimal') return MINIMAL_DROP.has(key);
  if (preset === 'standard') return key === 'preview' || (key === 'image' && isArray);
  return false;
}

export function project(data: unknown, preset: Preset): unknown {
  if (preset === 'full') return data;
  return walk(data, preset, 0);
}

function walk(value: unknown, preset: Exclude<Preset, 'full'>, depth: number): unknown {
  if (depth > DEPTH_MAX) return value;
  if (Array.isArray(value)) return value.map((item) => walk(item, preset, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (dropsMember(preset, key, Array.isArray(member))) continue;
    if (preset === 'standard' && key === 'attachment' && Array.isArray(member)) {
      out[key] = bestPerCodec(member);
      continue;
    }
    out[key] = walk(member, preset, depth + 1);
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
