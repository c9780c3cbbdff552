// Rate limits over Redis: counters are shared by every node, and a Redis outage does not fail requests.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { createRateLimiter } from '../../src/cache/rate-limit.ts';
import { connectRedis, deletePrefix, REDIS_URL, uniquePrefix } from './redis-connection.ts';

const probe = await connectRedis();

describe('rate limiter on Redis', { skip: probe === undefined ? 'Redis unreachable' : false }, () => {
  const clients: Redis[] = [];
  const keyPrefix = uniquePrefix('rate-limit');
  const connect = () => {
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    clients.push(redis);
    return redis;
  };
  const ready = async (redis: Redis) => {
    await redis.ping();
    return redis;
  };

  after(async () => {
    await deletePrefix(probe!, keyPrefix);
    for (const c of clients) c.disconnect();
    await probe?.quit();
  });

  test('the limit is enforced and remaining counts down', async () => {
    const limiter = createRateLimiter({ redis: await ready(connect()), points: 3, durationSeconds: 60, keyPrefix });
    const results = [];
    for (let i = 0; i < 4; i += 1) results.push(await limiter.consume('solo'));
    assert.deepEqual(results.map((r) => [r.allowed, r.remaining]), [[true, 2], [true, 1], [true, 0], [false, 0]]);
    assert.ok(results[3].resetSeconds >= 1 && results[3].resetSeconds <= 60);
  });

  test('two nodes share one budget per key', async () => {
    const nodeA = createRateLimiter({ redis: await ready(connect()), points: 4, durationSeconds: 60, keyPrefix });
    const nodeB = createRateLimiter({ redis: await ready(connect()), points: 4, durationSeconds: 60, keyPrefix });
    const seen = [];
    for (const limiter of [nodeA, nodeB, nodeA, nodeB, nodeA]) seen.push(await limiter.consume('shared'));
    assert.deepEqual(seen.map((r) => r.remaining), [3, 2, 1, 0, 0]);
    assert.deepEqual(seen.map((r) => r.allowed), [true, true, true, true, false]);
  });

  test('with Redis not ready, requests are limited per node instead of failing', async () => {
    const offline = new Redis(REDIS_URL, { lazyConnect: true, enableOfflineQueue: false });
    clients.push(offline);
    const limiter = createRateLimiter({ redis: offline, points: 1, durationSeconds: 60, keyPrefix });
    assert.equal((await limiter.consume('k')).allowed, true);
    assert.equal((await limiter.consume('k')).allowed, false);
  });
});
