// One watch run's reads: the target fetched through the normal executor (cache, budgets and
// breakers apply), reduced to the counts a snapshot records and the state events are derived from.
import { AppError, isAppError } from '../errors.ts';
import type { Executor } from '../operations/execute.ts';
import type { Operation } from '../operations/types.ts';
import type { Metrics, WatchKind } from './types.ts';

export type AsObject = Record<string, unknown>;

/** What a run saw: counts for the history, the objects as REST returns them, and flags for events. */
export type Observation = {
  metrics: Metrics;
  /** The watched object itself (Person, Video, the tag's first page, or the live). */
  main: AsObject | null;
  /** Newest videos first (user and tag watches). */
  videos?: AsObject[];
  /** The live object while live; null when not live (user and live watches). */
  live?: AsObject | null;
};

export type Operations = { user: Operation; userVideos: Operation; video: Operation; tagVideos: Operation; live: Operation };

/** How many of the newest videos a run reads to find new ones (one platform page). */
export const RECENT_VIDEOS_COUNT = 10;

async function read(executor: Executor, op: Operation, raw: Record<string, unknown>): Promise<AsObject> {
  const result = await executor.execute(op, executor.parse(op, raw));
  // An answer served stale because the platform failed says nothing new: count it as a failed run.
  if (result.cacheStatus === 'stale') throw new AppError('upstream_error', 'The platform failed; only a stale answer was available.');
  return JSON.parse(result.body.toString('utf8')) as AsObject;
}

async function readLive(executor: Executor, op: Operation, username: string): Promise<AsObject | null> {
  try {
    return await read(executor, op, { username });
  } catch (error) {
    if (isAppError(error) && error.code === 'not_live') return null;
    throw error;
  }
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const itemsOf = (page: AsObject): AsObject[] => (Array.isArray(page.orderedItems) ? (page.orderedItems as AsObject[]) : []);

/** Checks a target the way the operation it will use does; throws invalid_request naming the problem. */
export function normaliseTarget(executor: Executor, ops: Operations, kind: WatchKind, target: string): string {
  const bare = target.trim();
  if (kind === 'video') return String(executor.parse(ops.video, { videoId: bare }).videoId);
  if (kind === 'tag') return String(executor.parse(ops.tagVideos, { tagName: bare.replace(/^#/, '') }).tagName);
  return String(executor.parse(ops.user, { username: bare }).username);
}

export async function observe(executor: Executor, ops: Operations, kind: WatchKind, target: string): Promise<Observation> {
  if (kind === 'video') {
    const video = await read(executor, ops.video, { videoId: target });
    return {
      main: video,
      metrics: {
        viewCount: count(video.viewCount), likeCount: count(video.likeCount), commentCount: count(video.commentCount),
        shareCount: count(video.shareCount), saveCount: count(video.saveCount),
      },
    };
  }
  if (kind === 'tag') {
    const page = await read(executor, ops.tagVideos, { tagName: target, count: RECENT_VIDEOS_COUNT });
    return { main: page, videos: itemsOf(page), metrics: { videoCount: count(page.totalItems) } };
  }
  if (kind === 'live') {
    const live = await readLive(executor, ops.live, target);
    return { main: live, live, metrics: { isLive: live ? 1 : 0, viewerCount: live ? count(live.viewerCount) : 0 } };
  }
  const person = await read(executor, ops.user, { username: target });
  const page = await read(executor, ops.userVideos, { username: target, count: RECENT_VIDEOS_COUNT });
  // The profile says whether the user is live; the live room is read only then (one request saved per run).
  const live = person.isLive === true ? await readLive(executor, ops.live, target) : null;
  return {
    main: person,
    videos: itemsOf(page),
    live,
    metrics: {
      followerCount: count(person.followerCount), followingCount: count(person.followingCount),
      likeCount: count(person.likeCount), videoCount: count(person.videoCount),
    },
  };
}
