// The shared ByteStore for scaled-out nodes: each entry is one Redis string with a TTL, framed in a
// small binary layout so bodies round-trip byte for byte without JSON or base64 overhead.
import type { Redis } from 'ioredis';
import type { ByteStore, StoredEntry } from './types.ts';

export type RedisStoreOptions = {
  redis: Redis;
  /** Namespace of every key this store writes; lets several deployments share one Redis. */
  prefix?: string;
};

/** Frame: version (1 byte) · storedAtMs (float64 BE) · etag length (uint16 BE) · etag · body. */
const FRAME_VERSION = 1;
const HEADER_BYTES = 1 + 8 + 2;

export function createRedisStore({ redis, prefix = 'reelay:cache:' }: RedisStoreOptions): ByteStore {
  return {
    async get(key) {
      const frame = await redis.getBuffer(prefix + key);
      return frame === null ? undefined : decodeEntry(frame);
    },
    async set(key, entry, ttlSeconds) {
      if (!(ttlSeconds > 0)) {
        await redis.del(prefix + key);
        return;
      }
      await redis.set(prefix + key, encodeEntry(entry), 'PX', Math.max(1, Math.ceil(ttlSeconds * 1000)));
    },
    async delete(key) {
      await redis.del(prefix + key);
    },
    // The connection is the caller's (it is shared with locks and rate limits), so it stays open.
    async close() {},
  };
}

export function encodeEntry(entry: StoredEntry): Buffer {
  const etag = Buffer.from(entry.etag, 'utf8');
  if (etag.length > 0xffff) throw new RangeError('etag too long to frame');
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header.writeUInt8(FRAME_VERSION, 0);
  header.writeDoubleBE(entry.storedAtMs, 1);
  header.writeUInt16BE(etag.length, 9);
  return Buffer.concat([header, etag, entry.body]);
}

/** A frame this version cannot read (older layout, foreign value) is treated as absent. */
export function decodeEntry(frame: Buffer): StoredEntry | undefined {
  if (frame.length < HEADER_BYTES || frame.readUInt8(0) !== FRAME_VERSION) return undefined;
  const storedAtMs = frame.readDoubleBE(1);
  const etagEnd = HEADER_BYTES + frame.readUInt16BE(9);
  if (etagEnd > frame.length || !Number.isFinite(storedAtMs)) return undefined;
  return {
    storedAtMs,
    etag: frame.toString('utf8', HEADER_BYTES, etagEnd),
    body: frame.subarray(etagEnd),
  };
}
