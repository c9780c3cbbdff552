// Identity health shared by every node through Redis: one hash per identity with a TTL, updated
// atomically so two nodes recording at once never lose an outcome.
import type { Redis } from 'ioredis';
import { nextHealthScore, type IdentityHealthStore } from './health.ts';

export type RedisIdentityHealthOptions = {
  redis: Redis;
  /** Namespace of every key this store writes; lets several deployments share one Redis. */
  prefix?: string;
  /** An identity not heard of for this long is forgotten (retired identities never come back). */
  ttlSeconds?: number;
};

/**
 * next = base + previous × slope, with base/slope taken from nextHealthScore at 0 and 1: the score
 * update is linear in the previous score, so Redis applies it without knowing the weighting rule.
 * An absent score counts as 1, as in the memory store. Numbers travel as strings (Lua replies
 * would truncate them to integers).
 */
const RECORD_SCRIPT = `
local previous = tonumber(redis.call('hget', KEYS[1], 's') or '1') or 1
local score = tonumber(ARGV[1]) + previous * tonumber(ARGV[2])
redis.call('hset', KEYS[1], 's', string.format('%.17g', score), 't', ARGV[3])
redis.call('pexpire', KEYS[1], ARGV[4])
return 1`;

export function createRedisIdentityHealthStore(options: RedisIdentityHealthOptions): IdentityHealthStore {
  const { redis, prefix = 'reelay:health:', ttlSeconds = 6 * 3600 } = options;
  if (!(ttlSeconds > 0)) throw new RangeError(`ttlSeconds must be positive, got ${ttlSeconds}`);
  const ttlMs = String(Math.ceil(ttlSeconds * 1000));
  return {
    async get(identityId) {
      const [score, updatedAt] = await redis.hmget(prefix + identityId, 's', 't');
      if (score === null || updatedAt === null) return undefined;
      const parsed = { score: Number(score), updatedAtMs: Number(updatedAt) };
      return Number.isFinite(parsed.score) && Number.isFinite(parsed.updatedAtMs) ? parsed : undefined;
    },
    async record(identityId, outcome, nowMs) {
      const base = nextHealthScore(0, outcome);
      const slope = nextHealthScore(1, outcome) - base;
      await redis.eval(RECORD_SCRIPT, 1, prefix + identityId, String(base), String(slope), String(nowMs), ttlMs);
    },
  };
}
