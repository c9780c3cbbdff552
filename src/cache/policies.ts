// Default freshness per operation (and per internal resolution), and scaling for configuration.
// Stale windows let a node keep answering through upstream trouble; `live` stays tight because
// "is live now" served from an hour ago would be a wrong answer, not a slightly old one.
import type { CachePolicy } from './types.ts';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function policy(ttlSeconds: number, staleWhileRevalidateSeconds: number, staleIfErrorSeconds: number): CachePolicy {
  return Object.freeze({ ttlSeconds, staleWhileRevalidateSeconds, staleIfErrorSeconds });
}

export const CACHE_POLICIES = Object.freeze({
  user: policy(5 * MINUTE, 5 * MINUTE, DAY),
  userVideos: policy(3 * MINUTE, 3 * MINUTE, DAY),
  userReposts: policy(3 * MINUTE, 3 * MINUTE, DAY),
  userLikes: policy(3 * MINUTE, 3 * MINUTE, DAY),
  userCollections: policy(5 * MINUTE, 5 * MINUTE, DAY),
  userFollowers: policy(5 * MINUTE, 5 * MINUTE, DAY),
  video: policy(5 * MINUTE, 5 * MINUTE, DAY),
  comments: policy(MINUTE, MINUTE, DAY),
  replies: policy(MINUTE, MINUTE, DAY),
  tagVideos: policy(2 * MINUTE, 2 * MINUTE, DAY),
  live: policy(10, 10, MINUTE),
  transcript: policy(DAY, DAY, 7 * DAY),
  /** username → secUid: ids of accounts practically never change. */
  resolveUser: policy(3 * DAY, DAY, 7 * DAY),
  /** tag name → challenge id. */
  resolveTag: policy(3 * DAY, DAY, 7 * DAY),
});

export type CachePolicyName = keyof typeof CACHE_POLICIES;
export type CachePolicies = Readonly<Record<CachePolicyName, CachePolicy>>;

/**
 * Every duration multiplied by `factor` (whole seconds, at least 1); 0 turns caching off while
 * keeping coalescing. For operators who trade freshness for upstream load.
 */
export function scalePolicies(factor: number, policies: CachePolicies = CACHE_POLICIES): CachePolicies {
  if (!Number.isFinite(factor) || factor < 0) throw new RangeError(`cache policy factor must be >= 0, got ${factor}`);
  // A positive duration never rounds down to 0: a tiny factor must not silently disable a window.
  const scale = (seconds: number) => (seconds > 0 && factor > 0 ? Math.max(1, Math.round(seconds * factor)) : 0);
  const entries = Object.entries(policies).map(([name, p]) => [
    name,
    policy(scale(p.ttlSeconds), scale(p.staleWhileRevalidateSeconds), scale(p.staleIfErrorSeconds)),
  ]);
  return Object.freeze(Object.fromEntries(entries)) as CachePolicies;
}
