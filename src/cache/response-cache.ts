// The policy layer over a ByteStore: freshness, stale-while-revalidate, stale-if-error, coalesced
// loads and brief negative caching of "does not exist" answers (RFC 5861 semantics, server side).
import { createHash } from 'node:crypto';
import { AppError, ERROR_CODES, isAppError, type ErrorCode } from '../errors.ts';
import type { Coalescer } from './coalescer.ts';
import type { ByteStore, CacheLogger, CachePolicy, CacheResult, CacheStatus, ResponseCache, StoredEntry, ValueResult } from './types.ts';

export type CacheEvent = { key: string; status: CacheStatus | 'revalidated' | 'error' };

export type ResponseCacheOptions = {
  /** Owned by the cache: `close()` closes it. */
  store: ByteStore;
  /** Owned by the cache: `close()` closes it. */
  coalescer: Coalescer;
  /** Wall-clock milliseconds; ages are computed from it, so nodes sharing Redis need synced clocks. */
  clock?: { now(): number };
  onEvent?: (event: CacheEvent) => void;
  /**
   * Told once per `fetch`: a hit was answered from stored bytes without waiting on a load (fresh,
   * stale-while-revalidate, or a remembered absence); a miss waited on one (its own or a joined one).
   */
  onLookup?: (lookup: { key: string; hit: boolean }) => void;
  /** Upper bound on any policy's stale windows (operator setting). */
  maxStaleSeconds?: number;
  /** How long a not_found-like answer is remembered (capped by the policy's ttl); 0 disables it. */
  negativeTtlSeconds?: number;
  logger?: CacheLogger;
};

/**
 * Answers that say the thing does not exist (now). Remembering them for a few seconds stops a
 * burst of requests for a deleted or mistyped id from each costing an upstream call, while a
 * new upload becomes visible soon enough. Private/geo answers are not cached: they depend on identity.
 */
const NEGATIVE_CODES: ReadonlySet<ErrorCode> = new Set(['not_found', 'no_transcript', 'not_live']);
const NEGATIVE_PREFIX = 'neg:';

export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  const { store, coalescer, clock = Date, onEvent, onLookup, logger } = options;
  const { maxStaleSeconds = Number.POSITIVE_INFINITY, negativeTtlSeconds = 5 } = options;
  const refreshes = new Set<Promise<void>>();
  const { read, write } = safeStore(store, logger);
  const negative = createNegativeCache(store, clock, negativeTtlSeconds, logger);

  const emit = (key: string, status: CacheEvent['status']) => onEvent?.({ key, status });
  /**
   * Values of `fetchValue` loads, per key, for this process's callers to continue with as soon as
   * the load has them rather than once they are serialised and stored. A slot is opened by the
   * first caller or by the load itself (with Redis the load starts only once the lock is taken).
   */
  const handedOver = new Map<string, HandOverSlot>();
  const slotFor = (key: string): HandOverSlot => {
    let slot = handedOver.get(key);
    // A filled slot belongs to a load that is over (its entry being stored): never reused.
    if (slot === undefined || slot.filled) {
      let resolve!: (loaded: LoadedValue) => void;
      const promise = new Promise<LoadedValue>((r) => (resolve = r));
      slot = { promise, resolve, filled: false };
      handedOver.set(key, slot);
    }
    return slot;
  };
  /**
   * The same values once handed over, until stored: for `fetchValue` callers they stand for the
   * entry about to be stored (fresh, stale or expired by the same rules), since the load is over
   * and, its callers gone, may not be joinable.
   */
  const storing = new Map<string, LoadedValue>();

  /** Loads, stores and returns the fresh entry; coalesced per key (across processes with Redis). */
  type Load = (signal: AbortSignal) => Promise<unknown>;

  function load(key: string, policy: CachePolicy, fn: Load, seen: Pick<StoredEntry, 'storedAtMs'> | undefined, signal: AbortSignal | undefined, handOver = false) {
    const produce = async (shared: AbortSignal): Promise<LoadedEntry> => {
      const slot = handOver ? slotFor(key) : undefined;
      let loaded: LoadedValue | undefined;
      try {
        let value: unknown;
        try {
          value = await fn(shared);
        } catch (err) {
          emit(key, 'error');
          await negative.settleFailure(key, policy, err);
          throw err;
        }
        const storedAtMs = clock.now();
        loaded = { value, storedAtMs };
        if (slot) {
          // The callers in this process go on with the value (and answer) before it is serialised;
          // the load itself ends only once the entry is stored, so waiters on other nodes (and the
          // lock) see the same order as before: stored, then done.
          slot.filled = true;
          slot.resolve(loaded);
          storing.set(key, loaded);
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        const entry = toEntry(value, storedAtMs, { etag: !handOver });
        await write(key, entry, storeTtlSeconds(policy, maxStaleSeconds));
        // The value travels with the entry to this process's callers, so they need not parse it back.
        return { ...entry, value };
      } finally {
        if (slot && handedOver.get(key) === slot) handedOver.delete(key);
        if (loaded !== undefined && storing.get(key) === loaded) storing.delete(key);
      }
    };
    // A waiter on another node takes that node's result from the store: anything newer than what it saw.
    const peek = async () => {
      const entry = await read(key);
      return entry !== undefined && (seen === undefined || entry.storedAtMs > seen.storedAtMs) ? entry : undefined;
    };
    return coalescer.run(key, produce, peek, signal);
  }

  /** Nobody waits for a background refresh, so no caller's signal may cancel it. */
  function refreshInBackground(key: string, policy: CachePolicy, fn: Load, seen: Pick<StoredEntry, 'storedAtMs'>) {
    const refresh = load(key, policy, fn, seen, undefined).then(
      () => emit(key, 'revalidated'),
      (err: unknown) => logger?.warn({ err, key }, 'response cache: background refresh failed'),
    );
    const tracked = refresh.finally(() => refreshes.delete(tracked));
    refreshes.add(tracked);
  }

  async function loadNow(
    key: string,
    policy: CachePolicy,
    fn: Load,
    seen: Pick<StoredEntry, 'storedAtMs'> | undefined,
    stale: StoredEntry | LoadedValue | undefined,
    signal: AbortSignal | undefined,
    handOver = false,
  ): Promise<CacheResult | LoadedValueResult> {
    try {
      // A caller that only needs the value takes it as soon as this process has it (its own load,
      // or one it joined), not once it is serialised and stored.
      const slot = handOver ? slotFor(key) : undefined;
      const work = load(key, policy, fn, seen, signal, handOver);
      if (slot) {
        // A slot no load of this process fills (it failed, or another node loaded) is dropped.
        const drop = () => {
          if (!slot.filled && handedOver.get(key) === slot) handedOver.delete(key);
        };
        work.then(drop, drop);
      }
      const loaded = slot ? await Promise.race([work, slot.promise]) : await work;
      emit(key, 'miss');
      if (!('body' in loaded)) {
        return { value: loaded.value, status: 'miss', ageSeconds: Math.max(0, Math.floor((clock.now() - loaded.storedAtMs) / 1000)) };
      }
      return result(loaded, 'miss', clock.now());
    } catch (err) {
      // Stale-if-error: only for failures that may pass (upstream trouble), never for answers, and
      // never for a caller that has given up.
      if (signal?.aborted || stale === undefined || !isAppError(err) || !err.retryable) throw err;
      emit(key, 'stale');
      return result(stale, 'stale', clock.now());
    }
  }

  /** The stored entry when usable without loading, else the loaded one (see `fetch`). */
  async function lookup(key: string, policy: CachePolicy, fn: Load, signal: AbortSignal | undefined, handOver: boolean): Promise<CacheResult | LoadedValueResult> {
    const entry = (handOver ? storing.get(key) : undefined) ?? (await read(key));
    const now = clock.now();
    const windows = staleWindows(policy, maxStaleSeconds);
    const ageMs = entry === undefined ? Number.POSITIVE_INFINITY : now - entry.storedAtMs;
    if (entry !== undefined && ageMs < policy.ttlSeconds * 1000) {
      onLookup?.({ key, hit: true });
      emit(key, 'hit');
      return result(entry, 'hit', now);
    }
    if (entry !== undefined && ageMs < (policy.ttlSeconds + windows.swrSeconds) * 1000) {
      refreshInBackground(key, policy, fn, entry);
      onLookup?.({ key, hit: true });
      emit(key, 'stale');
      return result(entry, 'stale', now);
    }
    const usable = entry !== undefined && ageMs < (policy.ttlSeconds + windows.sieSeconds) * 1000;
    if (!usable) {
      const absence = await negative.recall(key);
      if (absence !== undefined) {
        onLookup?.({ key, hit: true });
        emit(key, 'hit');
        throw absence;
      }
    }
    onLookup?.({ key, hit: false });
    return loadNow(key, policy, fn, entry, usable ? entry : undefined, signal, handOver);
  }

  return {
    fetch: (key, policy, fn, signal) => lookup(key, policy, fn, signal, false) as Promise<CacheResult>,
    async fetchValue(key, policy, fn, signal) {
      const found = await lookup(key, policy, fn, signal, true);
      if (!('body' in found)) return found;
      const value = 'value' in found ? found.value : JSON.parse(found.body.toString('utf8'));
      return { value, status: found.status, ageSeconds: found.ageSeconds };
    },
    async close() {
      await Promise.allSettled([...refreshes]);
      await coalescer.close();
      await store.close();
    },
  };
}

/** Store access that degrades: a cache outage means uncached answers, not failed ones. */
function safeStore(store: ByteStore, logger: CacheLogger | undefined) {
  return {
    async read(key: string): Promise<StoredEntry | undefined> {
      try {
        return await store.get(key);
      } catch (err) {
        logger?.warn({ err }, 'response cache: store read failed');
        return undefined;
      }
    },
    async write(key: string, entry: StoredEntry, ttlSeconds: number): Promise<void> {
      try {
        await store.set(key, entry, ttlSeconds);
      } catch (err) {
        logger?.warn({ err }, 'response cache: store write failed');
      }
    },
    async forget(key: string): Promise<void> {
      try {
        await store.delete(key);
      } catch (err) {
        logger?.warn({ err }, 'response cache: store delete failed');
      }
    },
  };
}

/** Remembered "does not exist" answers, kept under their own keys next to the entries. */
function createNegativeCache(
  store: ByteStore,
  clock: { now(): number },
  negativeTtlSeconds: number,
  logger: CacheLogger | undefined,
) {
  const { read, write, forget } = safeStore(store, logger);
  return {
    /** A non-retryable failure is the new answer: its stale predecessor must not be served again. */
    async settleFailure(key: string, policy: CachePolicy, err: unknown): Promise<void> {
      if (!isAppError(err) || err.retryable) return;
      await forget(key);
      const ttlSeconds = Math.min(negativeTtlSeconds, policy.ttlSeconds);
      if (!NEGATIVE_CODES.has(err.code) || !(ttlSeconds > 0)) return;
      const nowMs = clock.now();
      const expiresAtMs = nowMs + ttlSeconds * 1000;
      const body = Buffer.from(JSON.stringify({ code: err.code, message: err.message, details: err.details, expiresAtMs }));
      await write(NEGATIVE_PREFIX + key, { body, etag: '', storedAtMs: nowMs }, ttlSeconds);
    },
    async recall(key: string): Promise<AppError | undefined> {
      const entry = await read(NEGATIVE_PREFIX + key);
      if (entry === undefined) return undefined;
      try {
        const { code, message, details, expiresAtMs } = JSON.parse(entry.body.toString('utf8')) as {
          code: ErrorCode; message: string; details?: Record<string, unknown>; expiresAtMs: number;
        };
        // Judged on the cache's clock, not on the store's expiry precision.
        if (!(clock.now() < expiresAtMs) || !Object.hasOwn(ERROR_CODES, code)) return undefined;
        return new AppError(code, message, { details });
      } catch {
        return undefined;
      }
    },
  };
}

function staleWindows(policy: CachePolicy, maxStaleSeconds: number) {
  return {
    swrSeconds: Math.max(0, Math.min(policy.staleWhileRevalidateSeconds, maxStaleSeconds)),
    sieSeconds: Math.max(0, Math.min(policy.staleIfErrorSeconds, maxStaleSeconds)),
  };
}

/** Kept as long as any window may still serve it: ttl + max(swr, sie). */
export function storeTtlSeconds(policy: CachePolicy, maxStaleSeconds = Number.POSITIVE_INFINITY): number {
  const { swrSeconds, sieSeconds } = staleWindows(policy, maxStaleSeconds);
  return policy.ttlSeconds + Math.max(swrSeconds, sieSeconds);
}

/**
 * `etag: false` for entries no client ever sees (platform data under `up:` keys): nothing compares
 * their validator, so the SHA-256 over a few hundred KB per platform page is not spent.
 */
export function toEntry(value: unknown, nowMs: number, options: { etag?: boolean } = {}): StoredEntry {
  // `undefined` has no JSON form; an operation that yields nothing is answered as null.
  const body = Buffer.from(JSON.stringify(value) ?? 'null', 'utf8');
  return { body, etag: options.etag === false ? '' : etagOf(body), storedAtMs: nowMs };
}

/** Strong validator: 27 base64url characters of SHA-256 (162 bits) in quotes (RFC 9110 §8.8.3). */
export function etagOf(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** An entry just loaded in this process, with the value it serialises. */
type LoadedEntry = StoredEntry & { value?: unknown };
/** A value just loaded in this process, before its entry exists. */
type LoadedValue = { value: unknown; storedAtMs: number };
type HandOverSlot = { promise: Promise<LoadedValue>; resolve(loaded: LoadedValue): void; filled: boolean };
type LoadedValueResult = ValueResult<unknown>;

function result(entry: LoadedEntry, status: CacheStatus, nowMs: number): CacheResult;
function result(entry: LoadedEntry | LoadedValue, status: CacheStatus, nowMs: number): CacheResult | LoadedValueResult;
function result(entry: LoadedEntry | LoadedValue, status: CacheStatus, nowMs: number): CacheResult | LoadedValueResult {
  const ageSeconds = Math.max(0, Math.floor((nowMs - entry.storedAtMs) / 1000));
  if (!('body' in entry)) return { value: entry.value, status, ageSeconds };
  const base = { body: entry.body, etag: entry.etag, storedAtMs: entry.storedAtMs, status, ageSeconds };
  return 'value' in entry ? { ...base, value: entry.value } : base;
}
