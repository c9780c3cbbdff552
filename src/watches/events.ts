// Events derived from two consecutive runs (pure): new videos, a live starting or ending, a changed
// profile. The first run only records what it saw: it is the baseline, not a burst of "new" events.
import type { AsObject, Observation } from './observe.ts';
import type { EventType, WatchKind } from './types.ts';

export type DerivedEvent = { type: EventType; object: AsObject; changes?: Record<string, { from: unknown; to: unknown }> };

type VideoState = { newestMs: number; ids: string[] };
type State = {
  profile?: { name: unknown; summary: unknown; avatar: string | null };
  videos?: VideoState;
  live?: AsObject | null;
};

const publishedMs = (video: AsObject): number => {
  const ms = typeof video.published === 'string' ? Date.parse(video.published) : NaN;
  return Number.isFinite(ms) ? ms : 0;
};

/**
 * An avatar's URL carries signature and expiry parameters that change on their own; the picture is
 * the same while the path is.
 */
function avatarOf(person: AsObject): string | null {
  const icon = person.icon as { url?: unknown } | undefined;
  if (!icon || typeof icon.url !== 'string') return null;
  try {
    const url = new URL(icon.url);
    return `${url.host}${url.pathname}`;
  } catch {
    return icon.url;
  }
}

function videoState(videos: AsObject[]): VideoState {
  return { newestMs: Math.max(0, ...videos.map(publishedMs)), ids: videos.map((v) => String(v.id)) };
}

/** Videos not seen before and not older than the newest one seen before (pinned posts are old). */
function newVideos(before: VideoState, videos: AsObject[]): AsObject[] {
  const seen = new Set(before.ids);
  return videos.filter((v) => !seen.has(String(v.id)) && publishedMs(v) >= before.newestMs).sort((a, b) => publishedMs(a) - publishedMs(b));
}

function liveEvents(before: AsObject | null | undefined, now: AsObject | null | undefined): DerivedEvent[] {
  if (before === undefined || now === undefined) return [];
  const out: DerivedEvent[] = [];
  // A different room between two runs: the old live ended and a new one started.
  if (before && (!now || before.id !== now.id || before.internalId !== now.internalId)) out.push({ type: 'live.ended', object: before });
  if (now && (!before || before.internalId !== now.internalId)) out.push({ type: 'live.started', object: now });
  return out;
}

function profileEvent(before: State['profile'], person: AsObject): DerivedEvent[] {
  if (!before) return [];
  const now = { name: person.name, summary: person.summary, avatar: avatarOf(person) };
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of ['name', 'summary', 'avatar'] as const) {
    if (before[key] !== now[key]) changes[key] = { from: before[key] ?? null, to: now[key] ?? null };
  }
  return Object.keys(changes).length > 0 ? [{ type: 'user.changed', object: person, changes }] : [];
}

export function deriveEvents(kind: WatchKind, previous: Record<string, unknown> | null, seen: Observation): { events: DerivedEvent[]; state: Record<string, unknown> } {
  const before = (previous ?? {}) as State;
  const first = previous === null;
  const state: State = {};
  const events: DerivedEvent[] = [];
  if (seen.videos) {
    state.videos = videoState(seen.videos);
    if (!first && before.videos) {
      for (const video of newVideos(before.videos, seen.videos)) events.push({ type: 'video.published', object: video });
    }
  }
  if (seen.live !== undefined) {
    state.live = seen.live;
    if (!first) events.push(...liveEvents(before.live, seen.live));
  }
  if (kind === 'user' && seen.main) {
    state.profile = { name: seen.main.name, summary: seen.main.summary, avatar: avatarOf(seen.main) };
    if (!first) events.push(...profileEvent(before.profile, seen.main));
  }
  return { events, state: state as Record<string, unknown> };
}
