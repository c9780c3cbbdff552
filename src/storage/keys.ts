// API keys: `rly_` + base64url of 32 random bytes. Only the SHA-256 hash is stored; every
// authentication reads the store, so a revocation on any node takes effect on the next request.

import crypto from 'node:crypto';
import type { ApiKeyRecord, NewApiKey, Store } from './types.ts';
import type { StoreGuard } from './guard.ts';

export const KEY_PREFIX = 'rly_';
/** Characters of a key that are safe to display and to revoke by (`rly_` + 8). */
export const DISPLAY_PREFIX_LENGTH = 12;
const KEY_BYTES = 32;
const KEY_PATTERN = /^rly_[A-Za-z0-9_-]{43}$/;
const DEFAULT_ACCOUNT = 'default';
const TOUCH_TRACKED_MAX = 10_000;

export function hashSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function isWellFormedKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function generateKey(): { key: string; hash: string; prefix: string } {
  const key = KEY_PREFIX + crypto.randomBytes(KEY_BYTES).toString('base64url');
  return { key, hash: hashSecret(key), prefix: key.slice(0, DISPLAY_PREFIX_LENGTH) };
}

export type CreateKeyInput = {
  accountName?: string;
  accountId?: string;
  name: string;
  expiresAt?: Date | null;
  oauthClientId?: string;
  resource?: string;
};

export type KeyService = {
  create(input: CreateKeyInput): Promise<{ key: string; record: ApiKeyRecord }>;
  /** A key only when the store has none yet (first start); null when any node already made one. */
  createFirst(input: CreateKeyInput): Promise<{ key: string; record: ApiKeyRecord } | null>;
  /** A new key and its record, not stored: for a caller that writes it in a larger transaction. */
  prepare(input: CreateKeyInput): Promise<{ key: string; record: NewApiKey }>;
  /**
   * The key's record, or null for unknown, malformed, revoked or expired keys. Rejects with
   * AppError store_unavailable when the store cannot be asked: a key is never accepted unchecked.
   */
  authenticate(key: string): Promise<ApiKeyRecord | null>;
  list(): Promise<ApiKeyRecord[]>;
  /** Whether the key with this id exists and is neither revoked nor expired (for work it left running). */
  isActive(id: string): Promise<boolean>;
  /** Revokes by key id, display prefix or the full key; returns how many keys were revoked. */
  revoke(idOrPrefix: string): Promise<number>;
};

export type KeyServiceOptions = {
  store: Store;
  clock?: () => Date;
  /** lastUsedAt is written at most this often per key, so a busy key is not a write per request. */
  touchIntervalMs?: number;
  /** Turns an unreachable store into store_unavailable, failing fast while it is known down. */
  guard?: Pick<StoreGuard, 'run' | 'isDown'>;
};

/** Constant-time comparison of two hex SHA-256 digests; unequal lengths never match. */
function sameHash(storedHex: string, computedHex: string): boolean {
  const stored = Buffer.from(storedHex, 'hex');
  const computed = Buffer.from(computedHex, 'hex');
  if (stored.length !== computed.length || stored.length === 0) return false;
  return crypto.timingSafeEqual(stored, computed);
}

const UNGUARDED: Pick<StoreGuard, 'run' | 'isDown'> = { run: (fn) => fn(), isDown: () => false };

export function createKeyService({ store, clock = () => new Date(), touchIntervalMs = 60_000, guard = UNGUARDED }: KeyServiceOptions): KeyService {
  // Last touch per key id on this node: keeps concurrent requests from all writing lastUsedAt.
  // It never caches a positive authentication; the record is read from the store every time.
  const lastTouch = new Map<string, number>();

  async function ensureAccount(name: string): Promise<string> {
    const existing = await store.findAccountByName(name);
    if (existing) return existing.id;
    try {
      return (await store.createAccount(name)).id;
    } catch (error) {
      // Another node may have created it between our read and our insert.
      const raced = await store.findAccountByName(name);
      if (raced) return raced.id;
      throw error;
    }
  }

  async function resolveAccount(input: CreateKeyInput): Promise<string> {
    if (input.accountId === undefined) return ensureAccount(input.accountName ?? DEFAULT_ACCOUNT);
    const account = await store.getAccount(input.accountId);
    if (!account) throw new Error(`Unknown account id: ${input.accountId}`);
    return account.id;
  }

  /** The record with lastUsedAt as this request leaves it. */
  async function touch(record: ApiKeyRecord, now: Date): Promise<ApiKeyRecord> {
    const last = Math.max(record.lastUsedAt?.getTime() ?? -Infinity, lastTouch.get(record.id) ?? -Infinity);
    if (now.getTime() - last < touchIntervalMs || guard.isDown()) return record;
    if (lastTouch.size >= TOUCH_TRACKED_MAX) lastTouch.clear();
    lastTouch.set(record.id, now.getTime());
    try {
      await store.touchKey(record.id, now);
      return { ...record, lastUsedAt: now };
    } catch {
      // lastUsedAt is informational; a failed write must not refuse a valid key.
      return record;
    }
  }

  async function prepare(input: CreateKeyInput): Promise<{ key: string; record: NewApiKey }> {
    if (input.name.trim() === '') throw new Error('A key needs a non-empty name');
    const accountId = await resolveAccount(input);
    const { key, hash, prefix } = generateKey();
    const record = {
      id: crypto.randomUUID(),
      accountId,
      name: input.name,
      hash,
      prefix,
      createdAt: clock(),
      expiresAt: input.expiresAt ?? null,
      oauthClientId: input.oauthClientId ?? null,
      resource: input.resource ?? null,
    };
    return { key, record };
  }

  return {
    async create(input) {
      const { key, record } = await prepare(input);
      return { key, record: await store.insertKey(record) };
    },

    async createFirst(input) {
      // Checked before preparing so an ordinary restart creates no account as a side effect.
      if ((await store.listKeys()).length > 0) return null;
      const { key, record } = await prepare(input);
      const stored = await store.insertFirstKey(record);
      return stored ? { key, record: stored } : null;
    },

    prepare,

    async authenticate(key) {
      if (typeof key !== 'string' || !isWellFormedKey(key)) return null;
      const hash = hashSecret(key);
      const record = await guard.run(() => store.findKeyByHash(hash));
      if (!record || !sameHash(record.hash, hash)) return null;
      const now = clock();
      if (record.revokedAt !== null) return null;
      if (record.expiresAt !== null && record.expiresAt.getTime() <= now.getTime()) return null;
      return touch(record, now);
    },

    async list() {
      return store.listKeys();
    },

    async isActive(id) {
      const record = await guard.run(() => store.findKeyById(id));
      if (!record || record.revokedAt !== null) return false;
      return record.expiresAt === null || record.expiresAt.getTime() > clock().getTime();
    },

    async revoke(idOrPrefix) {
      const target = idOrPrefix.trim();
      if (target === '') return 0;
      if (isWellFormedKey(target)) {
        // A full key revokes exactly that key, never others that share its display prefix.
        const record = await store.findKeyByHash(hashSecret(target));
        return record ? store.revokeKey(record.id, clock()) : 0;
      }
      return store.revokeKey(target, clock());
    },
  };
}
