// Wires the backing stores so that an outage degrades instead of stalling: Redis (cache, coalescing,
// rate limits, identity health) falls back to this node's memory while it is down, and readiness
// names what is down within a bounded time.
import type { Logger } from 'pino';
import type { Config } from './config/config.ts';
import { connectRedisLink, type RedisLink } from './cache/redis-link.ts';
import { createMemoryStore, type MemoryStore } from './cache/memory-store.ts';
import { createRedisStore } from './cache/redis-store.ts';
import { createFailoverStore } from './cache/failover-store.ts';
import { createLocalCoalescer, createRedisCoalescer, type Coalescer, type CoalescerHooks } from './cache/coalescer.ts';
import { createRateLimiter, type RateLimiter } from './cache/rate-limit.ts';
import type { ByteStore } from './cache/types.ts';
import { createMemoryIdentityHealthStore, type IdentityHealthStore } from './upstream/health.ts';
import { createRedisIdentityHealthStore } from './upstream/redis-health.ts';
import type { Store } from './storage/types.ts';

/** What /readyz reports; `redis` is absent when none is configured. */
export type Readiness = { database: 'ok' | 'down'; redis?: 'ok' | 'down' };

/** Each probe's bound: /readyz answers within a second whatever the stores do. */
export const READY_PROBE_MS = 750;

export type SharedState = {
  link: RedisLink | undefined;
  byteStore: ByteStore;
  /** The in-memory cache: the only one without Redis, the fallback while Redis is down with it. */
  memoryStore: MemoryStore;
  coalescer: Coalescer;
  rateLimiter: RateLimiter;
  /** Undefined without Redis: the platform client keeps its own in-memory health. */
  identityHealth: IdentityHealthStore | undefined;
  close(): void;
};

export async function createSharedState(config: Config, logger: Logger, hooks: CoalescerHooks = {}): Promise<SharedState> {
  const memoryStore = createMemoryStore({ maxBytes: config.cacheMaxBytes });
  const local = createLocalCoalescer(hooks);
  const limits = { points: config.rateLimit.points, durationSeconds: config.rateLimit.durationSeconds };
  if (!config.redisUrl) {
    return { link: undefined, byteStore: memoryStore, memoryStore, coalescer: local, rateLimiter: createRateLimiter(limits), identityHealth: undefined, close() {} };
  }
  const link = await connectRedisLink({ url: config.redisUrl, logger });
  const redis = link.client;
  const subscriber = link.duplicate();
  const onRedisFailure = (error: unknown) => link.reportFailure(error);
  const sharedHealth = createRedisIdentityHealthStore({ redis });
  const localHealth = createMemoryIdentityHealthStore();
  return {
    link,
    byteStore: createFailoverStore({ shared: createRedisStore({ redis }), local: memoryStore, link }),
    memoryStore,
    coalescer: createRedisCoalescer({ redis, subscriber, local, logger, available: link.isUp, onRedisFailure, hooks }),
    rateLimiter: createRateLimiter({ ...limits, redis, available: link.isUp, onRedisFailure }),
    // Shared so every node prefers the identities the platform still serves.
    identityHealth: {
      get: (id) => link.attempt(() => sharedHealth.get(id), () => localHealth.get(id)),
      record: (id, outcome, nowMs) =>
        link.attempt(() => sharedHealth.record(id, outcome, nowMs), () => localHealth.record(id, outcome, nowMs)),
    },
    close() {
      subscriber.disconnect();
      link.disconnect();
    },
  };
}

/** Probes every store at once, each bounded by READY_PROBE_MS; never rejects. */
export async function checkReadiness(store: Store, link: RedisLink | undefined, probeMs = READY_PROBE_MS): Promise<Readiness> {
  const database = probe(() => store.listKeys('ready-probe'), probeMs);
  // Known down: say so without waiting. Up: one bounded PING confirms it.
  const redis = link === undefined ? undefined : link.isUp() ? probe(() => link.client.ping(), probeMs) : Promise.resolve<'down'>('down');
  const report: Readiness = { database: await database };
  if (redis !== undefined) report.redis = await redis;
  return report;
}

async function probe(fn: () => Promise<unknown>, boundMs: number): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'down'>((resolve) => {
    timer = setTimeout(() => resolve('down'), boundMs);
  });
  const answered = fn().then(() => 'ok' as const, () => 'down' as const);
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}
