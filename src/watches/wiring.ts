// Builds the watch service from the service configuration: its store beside the main one, one
// executor per freshness cap (policies.ts), the webhook settings and the operations a run reads.
import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import type { KeyService } from '../storage/keys.ts';
import { ownerActivity } from './owner.ts';
import { createExecutor, type Executor } from '../operations/execute.ts';
import type { OperationDeps } from '../operations/types.ts';
import type { CachePolicies } from '../cache/policies.ts';
import { describeRedisUrl, type RedisLink } from '../cache/redis-link.ts';
import { getTagVideos } from '../operations/get-tag-videos.ts';
import { getUser } from '../operations/get-user.ts';
import { getUserLive } from '../operations/get-user-live.ts';
import { getUserVideos } from '../operations/get-user-videos.ts';
import { getVideo } from '../operations/get-video.ts';
import type { Operation } from '../operations/types.ts';
import type { Operations } from './observe.ts';
import { createBullmqScheduler } from './bullmq-scheduler.ts';
import { watchPolicies } from './policies.ts';
import { createScheduler, type Scheduler, type SchedulerDeps } from './scheduler.ts';
import { createWatchService, type WatchService } from './service.ts';
import { openWatchStore } from './sql-store.ts';
import { DEFAULT_WEBHOOK_SETTINGS } from './webhooks.ts';

export const WATCH_OPERATIONS: Operations = {
  user: getUser as unknown as Operation,
  userVideos: getUserVideos as unknown as Operation,
  video: getVideo as unknown as Operation,
  tagVideos: getTagVideos as unknown as Operation,
  live: getUserLive as unknown as Operation,
};

export type WatchWiring = {
  config: Config;
  executor: Executor;
  operationDeps: Omit<OperationDeps, 'policies'> & { policies: CachePolicies };
  logger: Logger;
  /** The node's Redis connection, when one is configured: its up/down switches the BullMQ scheduler's fallback. */
  redis?: RedisLink | undefined;
  /** The node's API keys: a revoked key's watches pause. */
  keys?: Pick<KeyService, 'isActive'>;
  onSettled?(event: { kind: 'run' | 'delivery'; id: string }): void;
};

/** How often a BullMQ node rebuilds the queues from PostgreSQL (a Redis flush, a crash between commit and add). */
const SWEEP_MS = 30_000;

/**
 * PostgreSQL and Redis together: the schedule and the deliveries run on BullMQ, PostgreSQL holding
 * the watches and their state; the embedded loop (PostgreSQL leases alone) stands in while Redis is down.
 * Otherwise the embedded loop alone.
 */
function pickScheduler(config: Config, redis: RedisLink | undefined, logger: Logger): ((deps: SchedulerDeps) => Scheduler) | undefined {
  const { databaseUrl, redisUrl } = config;
  if (!databaseUrl || !redisUrl) return undefined;
  return (deps) => {
    logger.info({ redis: describeRedisUrl(redisUrl), prefix: config.watches.queuePrefix }, 'watch scheduler: BullMQ queues on Redis, watches in PostgreSQL');
    return createBullmqScheduler({
      ...deps,
      redisUrl,
      prefix: config.watches.queuePrefix,
      sweepMs: SWEEP_MS,
      fallback: createScheduler(deps),
      ...(redis ? { redisState: { isUp: redis.isUp, onChange: redis.onChange, probe: () => probeRedis(redis) } } : {}),
    });
  };
}

/** A PING on the node's connection: its command timeout bounds it, and a timeout marks Redis down. */
async function probeRedis(redis: RedisLink): Promise<void> {
  await redis.attempt(async () => void (await redis.client.ping()), async () => undefined);
}

export async function createWatches({ config, executor, operationDeps, logger, redis, keys, onSettled }: WatchWiring): Promise<WatchService> {
  const store = await openWatchStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, onError: (error) => logger.debug({ err: error.message }, 'idle watch-store connection failed') });
  // Executors differ only in freshness; one per cap keeps their projection memos few.
  const executors = new Map<number, Executor>();
  const executorFor = (everyMs: number) => {
    const cap = Math.floor(everyMs / 2000);
    let found = executors.get(cap);
    if (!found) executors.set(cap, (found = createExecutor({ ...operationDeps, policies: watchPolicies(operationDeps.policies, everyMs) }, { renderedMaxBytes: 1024 * 1024 })));
    return found;
  };
  const w = config.watches;
  const chosen = pickScheduler(config, redis, logger.child({ component: 'watches' }));
  return createWatchService({
    store,
    executor,
    executorFor,
    ops: WATCH_OPERATIONS,
    ...(keys ? { ownerActive: ownerActivity(keys) } : {}),
    logger: logger.child({ component: 'watches' }),
    settings: {
      minIntervalMs: w.minIntervalMs,
      retentionMs: w.retentionMs,
      maxPerKey: w.maxPerKey,
      pauseAfter: w.pauseAfter,
      scheduler: w.scheduler,
      webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, allowPrivate: w.allowPrivateWebhooks, timeoutMs: w.webhookTimeoutMs, retryBaseMs: w.webhookRetryBaseMs, retryForMs: w.webhookRetryForMs },
    },
    ...(onSettled ? { onSettled } : {}),
    ...(chosen ? { createScheduler: chosen } : {}),
  });
}
