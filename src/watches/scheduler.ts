// The embedded scheduler: one loop in the process that claims due runs and due deliveries from the
// watch store (leased, so nodes sharing a PostgreSQL store never take the same one) and runs them
// with bounded concurrency. State lives in the store, so a restart resumes where it stopped.
import type { Logger } from 'pino';
import type { Delivery, DeliveryOutcome, RunOutcome, Watch, WatchStore } from './types.ts';

export type SchedulerDeps = {
  store: WatchStore;
  run(watch: Watch): Promise<RunOutcome>;
  deliver(delivery: Delivery): Promise<DeliveryOutcome>;
  now(): number;
  /** Longest sleep between two looks at the store. */
  tickMs: number;
  runConcurrency: number;
  deliveryConcurrency: number;
  /** How long a claimed run or delivery stays with this node before another may take it. */
  leaseMs: number;
  retentionMs: number;
  logger: Pick<Logger, 'warn' | 'info'>;
  /** Called after each finished run and delivery (metrics, tests). */
  onSettled?(event: { kind: 'run' | 'delivery'; id: string }): void;
};

/** What changed, for schedulers that keep a timetable of their own (BullMQ); this loop only looks again. */
export type WakeHint = { watch: Watch } | { removed: string } | { delivery: Pick<Delivery, 'id' | 'nextAttemptAt'> };

export type Scheduler = { start(): void; wake(hint?: WakeHint): void; stop(): Promise<void> };

const PRUNE_EVERY_MS = 3_600_000;

export function createScheduler(deps: SchedulerDeps): Scheduler {
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let ticking: Promise<void> | undefined;
  let again = false;
  let lastPrune = 0;
  const inFlight = new Set<Promise<void>>();
  let runs = 0;
  let deliveries = 0;

  const track = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => {
      inFlight.delete(work);
      if (!stopped) wake();
    });
  };

  async function runOne(watch: Watch): Promise<void> {
    runs++;
    try {
      const outcome = await deps.run(watch);
      await deps.store.completeRun(watch.id, outcome);
      if (outcome.pausedReason) deps.logger.warn({ watchId: watch.id, reason: outcome.pausedReason }, 'watch paused');
    } catch (error) {
      // The lease lapses and the run is claimed again; nothing is lost.
      deps.logger.warn({ watchId: watch.id, err: (error as Error).message }, 'watch run could not be recorded');
    } finally {
      runs--;
      deps.onSettled?.({ kind: 'run', id: watch.id });
    }
  }

  async function deliverOne(delivery: Delivery): Promise<void> {
    deliveries++;
    try {
      await deps.store.completeDelivery(delivery.id, await deps.deliver(delivery));
    } catch (error) {
      deps.logger.warn({ deliveryId: delivery.id, err: (error as Error).message }, 'webhook delivery could not be recorded');
    } finally {
      deliveries--;
      deps.onSettled?.({ kind: 'delivery', id: delivery.id });
    }
  }

  async function tick(): Promise<void> {
    const now = deps.now();
    const lease = now + deps.leaseMs;
    if (runs < deps.runConcurrency) {
      for (const watch of await deps.store.claimDueRuns(now, lease, deps.runConcurrency - runs)) track(runOne(watch));
    }
    if (deliveries < deps.deliveryConcurrency) {
      for (const d of await deps.store.claimDueDeliveries(now, lease, deps.deliveryConcurrency - deliveries)) track(deliverOne(d));
    }
    if (now - lastPrune >= PRUNE_EVERY_MS) {
      lastPrune = now;
      await deps.store.prune(now - deps.retentionMs);
    }
  }

  async function sleepLength(): Promise<number> {
    const now = deps.now();
    // At capacity, finished work wakes the loop: only the other kind's due time counts.
    const [run, delivery] = await Promise.all([
      runs < deps.runConcurrency ? deps.store.nextRunAt() : null,
      deliveries < deps.deliveryConcurrency ? deps.store.nextDeliveryAt() : null,
    ]);
    const due = Math.min(run ?? Infinity, delivery ?? Infinity);
    return Math.max(0, Math.min(deps.tickMs, due - now));
  }

  function schedule(ms: number): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(wake, ms);
    timer.unref();
  }

  function wake(): void {
    if (stopped) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = (async () => {
      let sleep = deps.tickMs;
      try {
        do {
          again = false;
          await tick();
        } while (again && !stopped);
        sleep = await sleepLength();
      } catch (error) {
        deps.logger.warn({ err: (error as Error).message }, 'watch scheduler could not read the store; trying again');
      } finally {
        ticking = undefined;
        // Work in flight wakes the loop when it ends; otherwise sleep until the next due item.
        schedule(Math.max(sleep, 10));
      }
    })();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      wake();
    },
    wake,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await ticking;
      await Promise.allSettled([...inFlight]);
    },
  };
}
