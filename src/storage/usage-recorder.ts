// Buffers per-request usage counts in memory and writes one aggregated upsert per (key, UTC day,
// operation) every flushMs and on close, so a busy node does not write once per request. While the
// store is down the counts stay buffered (bounded); counts beyond the bound are dropped and counted.

import { utcDay } from './rows.ts';
import type { Store } from './types.ts';

export type UsageRecorder = {
  record(keyId: string, operation: string, at?: Date, count?: number): void;
  /** Writes what is buffered now; counts that fail to write are kept for the next flush. */
  flush(): Promise<void>;
  /** Stops the timer and flushes what is left. */
  close(): Promise<void>;
  /** Distinct entries waiting to be written, and requests whose count was dropped since start. */
  stats(): { bufferedEntries: number; droppedRequests: number };
};

export type UsageRecorderOptions = {
  store: Pick<Store, 'addUsage'>;
  flushMs?: number;
  clock?: () => Date;
  /** Bound on distinct buffered (key, day, operation) entries while the store is failing. */
  entriesMax?: number;
  /** The first failed flush of an outage (later ones stay quiet until a flush succeeds). */
  onOutage?: (error: unknown) => void;
  /** A flush succeeded after failures; `droppedRequests` counts requests lost during that outage. */
  onRecovery?: (details: { droppedRequests: number }) => void;
};

type Pending = { keyId: string; operation: string; at: Date; count: number };

export function createUsageRecorder({
  store,
  flushMs = 1000,
  clock = () => new Date(),
  entriesMax = 100_000,
  onOutage = () => {},
  onRecovery = () => {},
}: UsageRecorderOptions): UsageRecorder {
  let buffer = new Map<string, Pending>();
  let flushing: Promise<void> = Promise.resolve();
  let running = false;
  let closed = false;
  let failing = false;
  let dropped = 0;
  let droppedAtOutage = 0;

  function add(entry: Pending): void {
    const id = `${entry.keyId}\u0000${utcDay(entry.at)}\u0000${entry.operation}`;
    const existing = buffer.get(id);
    if (existing) existing.count += entry.count;
    else if (buffer.size < entriesMax) buffer.set(id, { ...entry });
    else dropped += entry.count;
  }

  async function write(batch: Map<string, Pending>): Promise<void> {
    const entries = [...batch.values()];
    for (const [index, entry] of entries.entries()) {
      try {
        await store.addUsage(entry.keyId, entry.operation, entry.at, entry.count);
      } catch (error) {
        // The store is failing: keep this entry and the rest for the next flush without asking again.
        for (const rest of entries.slice(index)) add(rest);
        if (!failing) {
          failing = true;
          droppedAtOutage = dropped;
          onOutage(error);
        }
        return;
      }
    }
    if (failing) {
      failing = false;
      onRecovery({ droppedRequests: dropped - droppedAtOutage });
    }
  }

  function flush(): Promise<void> {
    // Flushes are chained so two never write the same counts concurrently.
    flushing = flushing.then(async () => {
      if (buffer.size === 0) return;
      const batch = buffer;
      buffer = new Map();
      running = true;
      try {
        await write(batch);
      } finally {
        running = false;
      }
    });
    return flushing;
  }

  // A flush slowed by an unreachable store is not queued behind by more timer flushes.
  const timer = setInterval(() => {
    if (!running) void flush();
  }, flushMs);
  timer.unref();

  return {
    record(keyId, operation, at = clock(), count = 1) {
      if (closed || count <= 0) return;
      add({ keyId, operation, at, count });
    },
    flush,
    async close() {
      if (closed) return flushing;
      closed = true;
      clearInterval(timer);
      await flush();
    },
    stats: () => ({ bufferedEntries: buffer.size, droppedRequests: dropped }),
  };
}
