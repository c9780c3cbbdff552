// Connects the cache tests to the local Redis, or explains loudly why they are skipped.
// Under CI=true an absent Redis is a failure: a green run must mean the Redis paths were exercised.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

export const REDIS_URL = 'redis://127.0.0.1:6379';

/** A connected client, or undefined (with a warning) when Redis is unreachable outside CI. */
export async function connectRedis(url = REDIS_URL): Promise<Redis | undefined> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  let lastError: unknown;
  redis.on('error', (err) => {
    lastError = err;
  });
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch (thrown) {
    const err = lastError ?? thrown;
    redis.disconnect();
    if (process.env.CI === 'true') throw new Error(`Redis at ${url} is required under CI=true`, { cause: err });
    console.warn(`\n!!! SKIPPING Redis cache tests: ${url} unreachable (${String(err)}).\n`);
    return undefined;
  }
}

/** A prefix unique to this run, so parallel runs never see each other's keys. */
export function uniquePrefix(label: string): string {
  return `reelay-test:${label}:${randomUUID()}:`;
}

/** Deletes every key under `prefix` (SCAN, bounded by the number of keys a test can create). */
export async function deletePrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  for (let round = 0; round < 10_000; round += 1) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
    if (cursor === '0') return;
  }
}
