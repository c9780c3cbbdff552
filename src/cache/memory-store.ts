// The embedded ByteStore: an in-process LRU bounded in bytes with a TTL per entry, used when no
// Redis is configured. Its size accounting is what keeps a busy node inside its memory budget.
import { LRUCache } from 'lru-cache';
import type { ByteStore, StoredEntry } from './types.ts';

/**
 * Bytes charged per entry beyond body, key and etag: the entry object, the LRU's slots, and the
 * Buffer's own ArrayBuffer and native backing store. Measured on Node 24: 40,000 entries with
 * small bodies grow the JS heap by about 490 B each and native memory by about 250 B each beyond
 * their bytes; 768 covers both, so a budget full of small entries is not a budget exceeded.
 */
export const ENTRY_OVERHEAD_BYTES = 768;

export type MemoryStoreOptions = {
  maxBytes: number;
  /** Time source for expiry (milliseconds, monotonic enough); tests inject a fake one. */
  clock?: { now(): number };
};

export type MemoryStore = ByteStore & {
  /** Bytes currently charged against `maxBytes` (bodies, keys and per-entry overhead). */
  sizeBytes(): number;
  /** Drops every entry. */
  clear(): void;
  readonly maxBytes: number;
};

export function createMemoryStore({ maxBytes, clock }: MemoryStoreOptions): MemoryStore {
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
    throw new RangeError(`maxBytes must be a positive integer, got ${maxBytes}`);
  }
  const lru = new LRUCache<string, StoredEntry>({
    maxSize: maxBytes,
    sizeCalculation: (entry, key) => entrySize(key, entry),
    // A fake clock needs every read to ask it; the default caches "now" for 1 ms.
    ...(clock === undefined ? {} : { perf: clock, ttlResolution: 0 }),
  });

  return {
    maxBytes,
    sizeBytes: () => lru.calculatedSize,
    clear: () => lru.clear(),
    async get(key) {
      return lru.get(key);
    },
    async set(key, entry, ttlSeconds) {
      if (!(ttlSeconds > 0)) {
        lru.delete(key);
        return;
      }
      // An entry bigger than the whole budget is refused by the LRU; drop any older version too.
      if (entrySize(key, entry) > maxBytes) {
        lru.delete(key);
        return;
      }
      lru.set(key, { body: ownCopy(entry.body), etag: entry.etag, storedAtMs: entry.storedAtMs }, {
        ttl: Math.ceil(ttlSeconds * 1000),
      });
    },
    async delete(key) {
      lru.delete(key);
    },
    async close() {
      lru.clear();
    },
  };
}

function entrySize(key: string, entry: StoredEntry): number {
  return entry.body.length + Buffer.byteLength(key) + Buffer.byteLength(entry.etag) + ENTRY_OVERHEAD_BYTES;
}

/**
 * Small Buffers made by `Buffer.from(string)` are views into a shared 8 KiB pool slab; keeping one
 * would pin the whole slab and make the byte accounting a lie. A private copy also keeps callers
 * that reuse their buffer from changing what is cached.
 */
function ownCopy(body: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(body.length);
  body.copy(copy);
  return copy;
}
