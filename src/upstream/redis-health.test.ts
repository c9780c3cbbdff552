// The Redis identity health store against the local Redis: same scores as the memory store, no lost
// updates between nodes, and a TTL on every entry. Skipped loudly without Redis (a failure under CI=true).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Redis } from 'ioredis';
import { connectRedis, deletePrefix, uniquePrefix } from '../../test/cache/redis-connection.ts';
import { createMemoryIdentityHealthStore } from './health.ts';
import { createRedisIdentityHealthStore } from './redis-health.ts';
import type { UpstreamOutcome } from './types.ts';

const probe = await connectRedis();

describe('identity health on Redis', { skip: probe === undefined ? 'Redis unreachable' : false }, () => {
  const redis = probe as Redis;
  const prefix = uniquePrefix('health');
  let other: Redis;
  before(() => {
    other = redis.duplicate();
  });
  after(async () => {
    await deletePrefix(redis, prefix);
    other.disconnect();
    await redis.quit();
  });

  test('an identity never recorded has no health', async () => {
    const store = createRedisIdentityHealthStore({ redis, prefix });
    assert.equal(await store.get('never-seen'), undefined);
  });

  test('scores follow the same rule as the memory store, neutral outcomes included', async () => {
    const shared = createRedisIdentityHealthStore({ redis, prefix });
    const local = createMemoryIdentityHealthStore();
    const outcomes: UpstreamOutcome[] = ['ok', 'blocked', 'not_found', 'upstream_error', 'ok', 'private_account', 'timeout'];
    for (const [i, outcome] of outcomes.entries()) {
      await shared.record('chrome-a', outcome, 1_000 + i);
      await local.record('chrome-a', outcome, 1_000 + i);
      const [got, want] = [await shared.get('chrome-a'), await local.get('chrome-a')];
      assert.ok(got && want);
      assert.ok(Math.abs(got.score - want.score) < 1e-12, `after ${outcome}: ${got.score} vs ${want.score}`);
      assert.equal(got.updatedAtMs, 1_000 + i);
    }
  });

  test('two nodes recording at once lose no outcome', async () => {
    const a = createRedisIdentityHealthStore({ redis, prefix });
    const b = createRedisIdentityHealthStore({ redis: other, prefix });
    const rounds = 20;
    await Promise.all(
      Array.from({ length: rounds }, (_, i) => [a.record('firefox-x', 'blocked', i), b.record('firefox-x', 'blocked', i)]).flat(),
    );
    const health = await a.get('firefox-x');
    // Each failure keeps 70% of the score; a lost update would leave it higher.
    assert.ok(health && Math.abs(health.score - 0.7 ** (2 * rounds)) < 1e-12, `score ${health?.score}`);
    assert.deepEqual(await b.get('firefox-x'), health, 'both nodes read the same health');
  });

  test('every entry carries a TTL no longer than configured', async () => {
    const store = createRedisIdentityHealthStore({ redis, prefix, ttlSeconds: 60 });
    await store.record('chrome-ttl', 'ok', 1);
    const ttlMs = await redis.pttl(`${prefix}chrome-ttl`);
    assert.ok(ttlMs > 0 && ttlMs <= 60_000, `pttl ${ttlMs}`);
  });

  test('a TTL that is not positive is refused at creation', () => {
    assert.throws(() => createRedisIdentityHealthStore({ redis, prefix, ttlSeconds: 0 }), RangeError);
  });
});
