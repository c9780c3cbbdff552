// Cache freshness for watch runs. A run must see changes within its interval, so the watched
// reads accept a cached answer at most half an interval old (never older than the operation's own
// policy allows) and never a stale one; name resolutions keep their long policies.
import type { CachePolicies } from '../cache/policies.ts';
import type { CachePolicy } from '../cache/types.ts';

/** The operations a run reads (observe.ts). */
const WATCHED = ['user', 'userVideos', 'video', 'tagVideos', 'live'] as const;

export function watchPolicies(base: CachePolicies, everyMs: number): Record<string, CachePolicy> {
  const capSeconds = Math.floor(everyMs / 2000);
  const out: Record<string, CachePolicy> = { ...base };
  for (const name of WATCHED) {
    out[name] = Object.freeze({ ttlSeconds: Math.min(base[name].ttlSeconds, capSeconds), staleWhileRevalidateSeconds: 0, staleIfErrorSeconds: 0 });
  }
  return out;
}
