// The media byte budget over Redis: one budget per key across nodes, refusals cost nothing, and a
// Redis outage falls back to the node's own counter instead of failing downloads.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { createByteBudget } from '../../src/media/budget.ts';
import { connectRedis, deletePrefix, REDIS_URL, uniquePrefix } from './redis-connection.ts';

const probe = await connectRedis();

describe('media byte budget on Redis', { skip: probe === undefined ? 'Redis unreachable' : false }, () => {
  const keyPrefix = uniquePrefix('media-bytes');
  const clients: Redis[] = [];
  const connect = async () => {
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    clients.push(redis);
    await redis.ping();
    return redis;
  };
  after(async () => {
    await deletePrefix(probe!, keyPrefix);
    for (const c of clients) c.disconnect();
    await probe?.quit();
  });

  test('two nodes draw on one budget per key; a refused reservation and a refund leave it as it should', async () => {
    const nodeA = createByteBudget({ bytesPerWindow: 10_000, redis: await connect(), keyPrefix });
    const nodeB = createByteBudget({ bytesPerWindow: 10_000, redis: await connect(), keyPrefix });
    assert.equal((await nodeA.reserve('k', 6_000)).remaining, 4_000);
    const refused = await nodeB.reserve('k', 5_000);
    assert.deepEqual([refused.allowed, refused.remaining], [false, 4_000]);
    await nodeB.refund('k', 1_000);
    assert.equal((await nodeA.reserve('k', 5_000)).remaining, 0);
    assert.equal((await nodeB.reserve('other', 10_000)).allowed, true);
  });

  test('with Redis known down, a node counts alone and still answers', async () => {
    let failures = 0;
    const budget = createByteBudget({ bytesPerWindow: 100, redis: await connect(), keyPrefix, available: () => false, onRedisFailure: () => void failures++ });
    assert.equal((await budget.reserve('down', 60)).remaining, 40);
    assert.equal((await budget.reserve('down', 60)).allowed, false);
    assert.equal(failures, 0, 'Redis was not asked');
  });
});
