// The cache contract used by operations: a byte store (memory LRU or Redis) under a policy layer
// that adds freshness, stale-while-revalidate, stale-if-error and coalescing of identical misses.

export type CachePolicy = {
  /** How long an entry is served as fresh. */
  ttlSeconds: number;
  /** After freshness ends, how long it is served while one background refresh runs. */
  staleWhileRevalidateSeconds: number;
  /** After freshness ends, how long it is served when the refresh fails. */
  staleIfErrorSeconds: number;
};

/** hit: fresh from cache; miss: loaded now; stale: served past freshness (revalidating or on error). */
export type CacheStatus = 'hit' | 'miss' | 'stale';

export type StoredEntry = {
  /** The serialised value, exactly as it will be sent (JSON bytes). */
  body: Buffer;
  /** Strong validator of `body`. */
  etag: string;
  storedAtMs: number;
};

export type CacheResult = StoredEntry & {
  status: CacheStatus;
  ageSeconds: number;
  /** The value itself when this call, or one coalesced with it in this process, just loaded it. */
  value?: unknown;
};

export type ValueResult<T> = { value: T; status: CacheStatus; ageSeconds: number };

/** A bounded byte store with per-entry expiry (memory LRU bounded in bytes, or Redis with TTLs). */
export interface ByteStore {
  get(key: string): Promise<StoredEntry | undefined>;
  set(key: string, entry: StoredEntry, ttlSeconds: number): Promise<void>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface ResponseCache {
  /**
   * The stored bytes for `key` when fresh (or stale within bounds); otherwise runs `load` once for
   * all concurrent callers of the same key (across processes when Redis is configured), stores the
   * serialised result and returns it. `load` rejects with AppError; retryable ones may yield stale.
   * When `signal` aborts the caller stops waiting; `load` gets a signal that aborts once every
   * caller sharing it has aborted (a background refresh never aborts).
   */
  fetch(key: string, policy: CachePolicy, load: (signal: AbortSignal) => Promise<unknown>, signal?: AbortSignal): Promise<CacheResult>;
  /**
   * `fetch` for callers that need the value, not the bytes (platform data an operation maps): the
   * same freshness, staleness, coalescing and storing, but a value loaded now is handed to this
   * process's callers before its entry is serialised and stored (in the next turn of the event
   * loop, after which the load counts as done for callers on other nodes). Such entries carry no
   * ETag (`''`).
   */
  fetchValue(key: string, policy: CachePolicy, load: (signal: AbortSignal) => Promise<unknown>, signal?: AbortSignal): Promise<ValueResult<unknown>>;
  close(): Promise<void>;
}

/** The slice of a pino logger the cache uses; warnings never carry keys' secrets or bodies. */
export type CacheLogger = { warn(details: Record<string, unknown>, message: string): void };
