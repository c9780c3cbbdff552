// PostgreSQL and Redis for the multi-node test, isolated per run: a fresh PostgreSQL schema and a
// Redis logical database claimed with a lock (and found empty), both removed afterwards.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import type { TestContext } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';

// Tests may read the environment: point them at other servers without editing them.
const PG_BASE = process.env.REELAY_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_BASE = process.env.REELAY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CLAIM_TTL_MS = 10 * 60_000;

export type Backing = { databaseUrl: string; redisUrl: string; release(): Promise<void> };

/** Skips `t` loudly when PostgreSQL or Redis is not there; under CI=true their absence fails it. */
export function skipWithoutBacking(t: TestContext, what: string, unavailable: string): void {
  const message = `${what} skipped: ${unavailable}`;
  if (process.env.CI === 'true') assert.fail(`${message} (CI=true requires PostgreSQL and Redis)`);
  console.warn(`\n!!! ${message}\n`);
  t.skip(message);
}

/** Either both services, isolated for this run, or the reason they are not available. */
export async function claimBacking(): Promise<Backing | { unavailable: string }> {
  const schema = `reelay_scale_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_BASE, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
  } catch (error) {
    return { unavailable: `PostgreSQL at ${new URL(PG_BASE).host} unreachable (${(error as Error).message})` };
  } finally {
    await admin.end().catch(() => {});
  }
  const dropSchema = () => withClient((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  const redis = await claimRedisDb().catch((error: Error) => ({ unavailable: error.message }));
  if ('unavailable' in redis) {
    await dropSchema();
    return redis;
  }
  const separator = PG_BASE.includes('?') ? '&' : '?';
  return {
    databaseUrl: `${PG_BASE}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    redisUrl: redis.url,
    async release() {
      await Promise.allSettled([dropSchema(), redis.release()]);
    },
  };
}

async function withClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_BASE, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Claims an empty logical database 1..15: a lock key in database 0 says whose it is. */
async function claimRedisDb(): Promise<{ url: string; release(): Promise<void> }> {
  const control = new Redis(REDIS_BASE, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 1, retryStrategy: () => null });
  control.on('error', () => {});
  try {
    await control.connect();
  } catch (error) {
    control.disconnect();
    throw new Error(`Redis at ${new URL(REDIS_BASE).host} unreachable (${(error as Error).message})`);
  }
  const token = randomUUID();
  for (let db = 1; db <= 15; db++) {
    const lock = `reelay-test:db-claim:${db}`;
    if ((await control.set(lock, token, 'PX', CLAIM_TTL_MS, 'NX')) !== 'OK') continue;
    const scoped = control.duplicate({ db });
    if ((await scoped.dbsize()) === 0) {
      return {
        url: `${REDIS_BASE.replace(/\/\d*$/, '')}/${db}`,
        async release() {
          await scoped.flushdb();
          scoped.disconnect();
          if ((await control.get(lock)) === token) await control.del(lock);
          control.disconnect();
        },
      };
    }
    scoped.disconnect();
    await control.del(lock);
  }
  control.disconnect();
  throw new Error('no empty Redis logical database (1..15) could be claimed');
}
