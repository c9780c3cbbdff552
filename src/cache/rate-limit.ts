// Fixed-window request limits per API key (memory, or Redis so all nodes share one counter), and the
// IETF RateLimit / RateLimit-Policy header values (draft-ietf-httpapi-ratelimit-headers-10).
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export type RateLimitResult = {
  allowed: boolean;
  /** Requests allowed per window (the policy's quota). */
  limit: number;
  /** Requests left in the current window, never negative. */
  remaining: number;
  /** Seconds until the window resets (also the Retry-After of a denial). */
  resetSeconds: number;
};

export type RateLimiter = {
  /** Counts one request for `key` (an API key id, never the secret itself). Never throws for a denial. */
  consume(key: string): Promise<RateLimitResult>;
  readonly limit: number;
  readonly windowSeconds: number;
};

export type RateLimiterOptions = {
  /** Shared counters across nodes; without it, counters live in this process. */
  redis?: Redis;
  /** False while Redis is known down: this node then counts alone, without asking Redis. */
  available?: () => boolean;
  /** Told of every failed Redis call, so a health flag can trip. */
  onRedisFailure?: (error: unknown) => void;
  points: number;
  durationSeconds: number;
  keyPrefix?: string;
};

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { redis, points, durationSeconds, keyPrefix = 'reelay:rl', available = () => true, onRedisFailure = () => {} } = options;
  if (!Number.isSafeInteger(points) || points <= 0) throw new RangeError(`points must be a positive integer, got ${points}`);
  if (!Number.isSafeInteger(durationSeconds) || durationSeconds <= 0) {
    throw new RangeError(`durationSeconds must be a positive integer, got ${durationSeconds}`);
  }
  const memory = new RateLimiterMemory({ points, duration: durationSeconds, keyPrefix });
  // rejectIfRedisNotReady: a call while reconnecting fails at once instead of queueing.
  const shared = redis === undefined
    ? undefined
    : new RateLimiterRedis({ storeClient: redis, points, duration: durationSeconds, keyPrefix, rejectIfRedisNotReady: true });

  async function consumeFrom(limiter: RateLimiterMemory | RateLimiterRedis, key: string): Promise<RateLimitResult> {
    try {
      return toResult(true, points, await limiter.consume(key));
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) return toResult(false, points, outcome);
      throw outcome;
    }
  }

  return {
    limit: points,
    windowSeconds: durationSeconds,
    async consume(key) {
      // With Redis down, each node enforces the whole limit alone on its own counters: a request
      // is never refused or delayed because the shared counter cannot be reached.
      if (shared === undefined || !available()) return consumeFrom(memory, key);
      try {
        return await consumeFrom(shared, key);
      } catch (error) {
        onRedisFailure(error);
        return consumeFrom(memory, key);
      }
    },
  };
}

function toResult(allowed: boolean, limit: number, res: RateLimiterRes): RateLimitResult {
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(0, Math.ceil(res.msBeforeNext / 1000)),
  };
}

export type RateLimitPolicy = {
  windowSeconds: number;
  /** Policy name shown to clients; a Structured Fields string. */
  name?: string;
};

/**
 * Header values for one policy: `RateLimit: "default";r=<remaining>;t=<reset>` and
 * `RateLimit-Policy: "default";q=<quota>;w=<window>` (Structured Fields lists, draft -10 §3–4).
 */
export function rateLimitHeaders(
  result: RateLimitResult,
  policy: RateLimitPolicy,
): { RateLimit: string; 'RateLimit-Policy': string } {
  const name = sfString(policy.name ?? 'default');
  return {
    RateLimit: `${name};r=${result.remaining};t=${result.resetSeconds}`,
    'RateLimit-Policy': `${name};q=${result.limit};w=${policy.windowSeconds}`,
  };
}

/** RFC 8941 §3.3.3: printable ASCII only, with `"` and `\` escaped. */
function sfString(value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new RangeError('rate limit policy name must be printable ASCII');
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
