// The scale-out scheduler: runs and deliveries on BullMQ over Redis, the database staying the source
// of truth. One job scheduler per active watch fires its runs; each delivery is a job (id = delivery
// id) delayed to its next attempt. Every job claims its row through the store's lease before working.
import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import type { Scheduler, SchedulerDeps, WakeHint } from './scheduler.ts';
import type { PendingDelivery, Watch, WatchSchedule } from './types.ts';

export type BullmqSchedulerDeps = Omit<SchedulerDeps, 'tickMs'> & {
  redisUrl: string;
  /** Key prefix of the queues in Redis: nodes with one prefix share one timetable. */
  prefix: string;
  /** How often a node rebuilds the queues from the database (missing schedulers, lost delivery jobs). */
  sweepMs: number;
  /** Runs watches from the database alone while Redis is down: the embedded scheduler. */
  fallback?: Scheduler;
  /** Redis up or down, as the node's shared connection sees it. */
  redisState?: {
    isUp(): boolean;
    onChange(listener: (up: boolean) => void): void;
    /** One bounded command on the node's connection; a timeout marks Redis down (and calls the listeners). */
    probe?(): Promise<void>;
  };
};

export const RUN_QUEUE = 'watch-runs';
export const DELIVERY_QUEUE = 'watch-deliveries';

type RunData = { watchId: string };
type DeliveryData = { deliveryId: string };

const PRUNE_EVERY_MS = 3_600_000;
/** Pending deliveries re-queued per sweep at most; the oldest first, the rest on the next sweep. */
const SWEEP_DELIVERIES_MAX = 5000;
/** A delivery job that could not reach the database looks again after this long. */
const RECHECK_MS = 5000;
/** Bound on letting in-flight jobs finish at stop; past it workers close at once (their jobs stall to another node). */
const CLOSE_BOUND_MS = 8000;
const ERROR_LOG_EVERY_MS = 60_000;
/**
 * How often a node asks Redis whether it answers. A hung Redis (connections open, no replies) never
 * errors: blocked workers wait on it forever and, without this, the fallback would never start.
 */
const PROBE_MS = 2000;
// The database keeps every outcome: jobs leave Redis once handled.
const JOB_OPTIONS = { removeOnComplete: true, removeOnFail: true } as const;

/**
 * The slot a scheduler's job was made for: its creation plus the delay it was given (`job.delay` is
 * zero once the job is promoted; `opts.delay` keeps it). A job made late, delay 0, has its creation.
 */
export function slotOf(job: Pick<Job, 'timestamp' | 'opts'>): number {
  return job.timestamp + (job.opts.delay ?? 0);
}

function connection(url: string, worker: boolean) {
  return {
    url,
    connectTimeout: 2000,
    // Found again within 2 s of Redis returning, as the node's own connection is.
    retryStrategy: (times: number) => Math.min(100 * 2 ** Math.min(times, 5), 2000),
    // Workers block on Redis and must wait out a reconnect (BullMQ requires null); producers fail
    // fast instead, since the database holds what they add and the sweep adds it again.
    ...(worker ? { maxRetriesPerRequest: null } : { maxRetriesPerRequest: 1, enableOfflineQueue: false }),
  };
}

const LATE = Symbol('late');

/** `work`, or LATE once `deadline` (epoch ms) has passed. */
async function until<T>(work: Promise<T>, deadline: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

export function createBullmqScheduler(deps: BullmqSchedulerDeps): Scheduler {
  let runs: Queue<RunData> | undefined;
  let deliveries: Queue<DeliveryData> | undefined;
  let workers: Worker[] = [];
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let probeTimer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;
  let lastPrune = 0;
  let lastErrorLog = 0;
  let listening = false;
  /** Scheduler changes apply in order, so a pause then a resume cannot land the other way round. */
  let changes: Promise<void> = Promise.resolve();

  const warn = (details: Record<string, unknown>, message: string) => deps.logger.warn(details, message);
  // Connection errors repeat on every reconnect attempt; the node's link already logs the outage.
  const onQueueError = (error: Error) => {
    const now = Date.now();
    if (now - lastErrorLog < ERROR_LOG_EVERY_MS) return;
    lastErrorLog = now;
    warn({ err: error.message }, 'watch queue error (logged at most once a minute)');
  };

  async function enqueue(list: PendingDelivery[]): Promise<void> {
    if (!deliveries || list.length === 0) return;
    const now = deps.now();
    // The job id is the delivery id: adding one that is already queued is a no-op.
    await deliveries.addBulk(list.map((d) => ({
      name: 'deliver',
      data: { deliveryId: d.id },
      opts: { ...JOB_OPTIONS, jobId: d.id, delay: Math.max(0, d.nextAttemptAt - now) },
    })));
  }

  async function schedule(watch: WatchSchedule): Promise<void> {
    // startDate keeps the watch's phase: the first job fires at its nextRunAt, then every `everyMs`.
    await runs?.upsertJobScheduler(watch.id, { every: watch.everyMs, startDate: watch.nextRunAt }, { name: 'run', data: { watchId: watch.id }, opts: JOB_OPTIONS });
  }

  async function unschedule(id: string): Promise<void> {
    await runs?.removeJobScheduler(id);
  }

  async function processRun(job: Job<RunData>): Promise<void> {
    const now = deps.now();
    const slot = slotOf(job);
    // Due by the job's slot: backoff and Retry-After live in nextRunAt, so a job that fires early is skipped.
    const watch = await deps.store.claimRun(job.data.watchId, Math.max(now, slot), now, now + deps.leaseMs);
    if (!watch) return;
    try {
      // The slot is the scheduled time, so the next run lands on the scheduler's next job.
      const outcome = await deps.run({ ...watch, nextRunAt: slot });
      await deps.store.completeRun(watch.id, outcome);
      if (outcome.pausedReason) {
        warn({ watchId: watch.id, reason: outcome.pausedReason }, 'watch paused');
        change(() => unschedule(watch.id));
      }
      await enqueue(outcome.deliveries).catch((error: Error) => {
        warn({ watchId: watch.id, err: error.message }, 'deliveries recorded but not queued; the sweep queues them');
      });
    } catch (error) {
      // The lease lapses and a later job of the scheduler runs it; nothing is lost.
      warn({ watchId: watch.id, err: (error as Error).message }, 'watch run could not be recorded');
    } finally {
      deps.onSettled?.({ kind: 'run', id: watch.id });
    }
  }

  async function attemptDelivery(id: string): Promise<number | null> {
    const now = deps.now();
    const delivery = await deps.store.claimDelivery(id, now, now + deps.leaseMs);
    // Not claimed: not due yet, leased by a node that may have died, or no longer pending.
    if (!delivery) return deps.store.deliveryDueAt(id);
    try {
      const outcome = await deps.deliver(delivery);
      await deps.store.completeDelivery(id, outcome);
      return outcome.status === 'pending' ? outcome.nextAttemptAt : null;
    } catch (error) {
      warn({ deliveryId: id, err: (error as Error).message }, 'webhook delivery could not be recorded');
      return now + deps.leaseMs;
    } finally {
      deps.onSettled?.({ kind: 'delivery', id });
    }
  }

  async function processDelivery(job: Job<DeliveryData>, token?: string): Promise<void> {
    let next: number | null;
    try {
      next = await attemptDelivery(job.data.deliveryId);
    } catch (error) {
      warn({ deliveryId: job.data.deliveryId, err: (error as Error).message }, 'watch store unreachable; delivery looked at again shortly');
      next = deps.now() + RECHECK_MS;
    }
    if (next === null) return;
    // Retries follow the database's schedule (backoff, expiry): the same job waits for the next attempt.
    await job.moveToDelayed(Math.max(next, deps.now() + 100), token);
    throw new DelayedError();
  }

  /** Rebuilds the queues from the database: add missing schedulers, drop stale ones, queue pending deliveries. */
  async function sweep(): Promise<void> {
    if (!runs) return;
    // Redis first, then the database: a change made between the two reads is seen in its new form.
    const present = new Map((await runs.getJobSchedulers(0, -1)).map((s) => [s.key, s.every]));
    const schedules = await deps.store.listSchedules();
    const wanted = new Set(schedules.map((s) => s.id));
    for (const watch of schedules) if (present.get(watch.id) !== watch.everyMs) await schedule(watch);
    for (const id of present.keys()) if (!wanted.has(id)) await unschedule(id);
    await enqueue(await deps.store.listPendingDeliveries(SWEEP_DELIVERIES_MAX));
    const now = deps.now();
    if (now - lastPrune >= PRUNE_EVERY_MS) {
      lastPrune = now;
      await deps.store.prune(now - deps.retentionMs);
    }
  }

  function sweepSoon(ms: number): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      sweeping = sweep()
        .catch((error: Error) => warn({ err: error.message }, 'watch queues could not be rebuilt from the database; trying again'))
        .finally(() => {
          sweeping = undefined;
          sweepSoon(deps.sweepMs);
        });
    }, ms);
    timer.unref();
  }

  function change(fn: () => Promise<void>): void {
    changes = changes.then(fn).catch((error: Error) => warn({ err: error.message }, 'watch queue not updated; the next sweep catches up'));
  }

  function follow(watch: Watch): void {
    change(() => (watch.status === 'active' ? schedule(watch) : unschedule(watch.id)));
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      const prefix = deps.prefix;
      runs = new Queue<RunData>(RUN_QUEUE, { connection: connection(deps.redisUrl, false), prefix });
      deliveries = new Queue<DeliveryData>(DELIVERY_QUEUE, { connection: connection(deps.redisUrl, false), prefix });
      const runWorker = new Worker<RunData>(RUN_QUEUE, processRun, { connection: connection(deps.redisUrl, true), prefix, concurrency: deps.runConcurrency });
      const deliveryWorker = new Worker<DeliveryData>(DELIVERY_QUEUE, processDelivery, { connection: connection(deps.redisUrl, true), prefix, concurrency: deps.deliveryConcurrency });
      workers = [runWorker, deliveryWorker];
      runs.on('error', onQueueError);
      deliveries.on('error', onQueueError);
      for (const worker of workers) worker.on('error', onQueueError);
      if (deps.fallback && deps.redisState && !listening) {
        listening = true;
        const fallback = deps.fallback;
        deps.redisState.onChange((up) => {
          if (stopped) return;
          if (!up) {
            // The node's link logs the outage itself; this says what it means for watches.
            deps.logger.info({}, 'watches run from PostgreSQL alone (no queues) while Redis is down');
            fallback.start();
            return;
          }
          // Back on the queues: whatever happened meanwhile is in the database, so the sweep catches up.
          void fallback.stop().then(() => sweepSoon(0));
        });
        if (!deps.redisState.isUp()) fallback.start();
      }
      const { redisState } = deps;
      if (redisState?.probe) {
        const probe = redisState.probe.bind(redisState);
        // Only while Redis is thought up: once down, the link's own reconnects find it again.
        probeTimer = setInterval(() => {
          if (!stopped && redisState.isUp()) void probe().catch(() => {});
        }, PROBE_MS);
        probeTimer.unref();
      }
      sweepSoon(0);
    },
    wake(hint?: WakeHint) {
      if (stopped || !hint) return;
      if ('watch' in hint) follow(hint.watch);
      else if ('removed' in hint) change(() => unschedule(hint.removed));
      else change(() => enqueue([hint.delivery]));
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      clearInterval(probeTimer);
      // A stalled Redis never answers: every wait on it below shares one bound, past which the
      // connections are dropped (jobs held then stall to another node; the database keeps the rest).
      const deadline = Date.now() + CLOSE_BOUND_MS;
      await until(Promise.allSettled([sweeping, changes]), deadline);
      await deps.fallback?.stop();
      const closed = await until(Promise.allSettled([...workers.map((w) => w.close()), runs?.close(), deliveries?.close()]), deadline);
      if (closed === LATE) {
        warn({ boundMs: CLOSE_BOUND_MS }, 'watch queues did not close in time; dropping their connections');
        await Promise.allSettled([...workers.map((w) => w.disconnect()), runs?.disconnect(), deliveries?.disconnect()]);
      }
      workers = [];
      runs = deliveries = undefined;
    },

  };
}
