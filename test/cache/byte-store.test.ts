// Runs the ByteStore contract against the memory LRU and against Redis.
import { after } from 'node:test';
import { createMemoryStore } from '../../src/cache/memory-store.ts';
import { createRedisStore } from '../../src/cache/redis-store.ts';
import { runByteStoreContract } from './byte-store-contract.ts';
import { connectRedis, deletePrefix, uniquePrefix } from './redis-connection.ts';

runByteStoreContract('memory', async () => {
  let nowMs = 1_000_000;
  const clock = { now: () => nowMs };
  return {
    store: createMemoryStore({ maxBytes: 1 << 20, clock }),
    elapseMs: (ms) => {
      nowMs += ms;
    },
    cleanup: async () => {},
  };
});

const redis = await connectRedis();
if (redis !== undefined) {
  after(() => redis.quit());
  runByteStoreContract('redis', async () => {
    const prefix = uniquePrefix('byte-store');
    return {
      store: createRedisStore({ redis, prefix }),
      remainingTtlMs: async (key) => {
        const ms = await redis.pttl(prefix + key);
        return ms < 0 ? undefined : ms;
      },
      cleanup: () => deletePrefix(redis, prefix),
    };
  });
}
