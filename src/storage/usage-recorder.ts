// Buffers per-request usage counts in memory and writes one aggregated upsert per (key, UTC day,
// operation) every flushMs and on close, so a busy node does not write once per request.

import { utcDay } from './rows.ts';
import type { Store } from './types.ts';

export type UsageRecorder = {
  record(keyId: string, operation: string, at?: Date, count?: number): void;
  /** Writes what is buffered now; counts that fail to write are kept for the next flush. */
  flush(): Promise<void>;
  /** Stops the timer and flushes what is left. */
  close(): Promise<void>;
};

export type UsageRecorderOptions = {
  store: Pick<Store, 'addUsage'>;
  flushMs?: number;
  clock?: () => Date;
  /** Bound on distinct buffered (key, day, operation) entries while the store is failing. */
  entriesMax?: number;
  onError?: (error: unknown) => void;
};

type Pending = { keyId: string; operation: string; at: Date; count: number };

export function createUsageRecorder({
  store,
  flushMs = 1000,
  clock = () => new Date(),
  entriesMax = 100_000,
  onError = () => {},
}: UsageRecorderOptions): UsageRecorder {
  let buffer = new Map<string, Pending>();
  let flushing: Promise<void> = Promise.resolve();
  let closed = false;

  function add(entry: Pending): void {
    const id = `${entry.keyId}\u0000${utcDay(entry.at)}\u0000${entry.operation}`;
    const existing = buffer.get(id);
    if (existing) existing.count += entry.count;
    else if (buffer.size < entriesMax) buffer.set(id, { ...entry });
  }

  async function write(batch: Map<string, Pending>): Promise<void> {
    for (const entry of batch.values()) {
      try {
        await store.addUsage(entry.keyId, entry.operation, entry.at, entry.count);
      } catch (error) {
        add(entry);
        onError(error);
      }
    }
  }

  function flush(): Promise<void> {
    // Flushes are chained so two never write the same counts concurrently.
    flushing = flushing.then(() => {
      if (buffer.size === 0) return;
      const batch = buffer;
      buffer = new Map();
      return write(batch);
    });
    return flushing;
  }

  const timer = setInterval(() => void flush(), flushMs);
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
  };
}
