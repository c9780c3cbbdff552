// Authenticated collection cursors. A cursor is `<payload>.<key id>.<tag>`: the payload is the
// paging state, the tag an HMAC-SHA256 (first 16 bytes) over the key id, what the cursor is bound to
// (operation, subject, order) and the payload. The keys live in the database so every node signs
// and verifies alike; the highest id signs, older ones verify until a day after their successor.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CursorKeyRecord, Store } from '../storage/types.ts';

export type CursorSigner = {
  /** `binding` names the collection the cursor belongs to; `payload` is base64url. */
  seal(binding: string, payload: string): string;
  /** The payload when the cursor is intact, ours, not expired and bound to `binding`; else undefined. */
  open(binding: string, cursor: string): Promise<string | undefined>;
};

type Key = { id: number; secret: Buffer; createdAtMs: number };
type Ring = { current: Key; byId: Map<number, Key>; validUntilMs: Map<number, number> };

/** How long a replaced key still verifies: cursors handed out just before a rotation keep working. */
export const PREVIOUS_KEY_VALID_MS = 24 * 60 * 60 * 1000;
/** How often a node rereads the keys, so it learns of a rotation made elsewhere. */
const RELOAD_MS = 60_000;
/** An unknown key id triggers a reload, at most this often (a forged id must not hammer the store). */
const UNKNOWN_RELOAD_MS = 10_000;
const TAG_BYTES = 16;

function tagOf(key: Key, binding: string, payload: string): string {
  return createHmac('sha256', key.secret).update(`${key.id}\n${binding}\n${payload}`).digest().subarray(0, TAG_BYTES).toString('base64url');
}

function ringOf(records: CursorKeyRecord[]): Ring {
  const keys = records.map((r) => ({ id: r.id, secret: Buffer.from(r.secret, 'base64url'), createdAtMs: r.createdAt.getTime() })).sort((a, b) => b.id - a.id);
  const validUntilMs = new Map<number, number>();
  // A key verifies until a day after the next newer key was created; the newest forever.
  keys.forEach((key, i) => validUntilMs.set(key.id, i === 0 ? Number.POSITIVE_INFINITY : keys[i - 1].createdAtMs + PREVIOUS_KEY_VALID_MS));
  return { current: keys[0], byId: new Map(keys.map((k) => [k.id, k])), validUntilMs };
}

function signerOver(ring: () => Ring, clock: { now(): number }, reload: (() => Promise<void>) | undefined): CursorSigner {
  let lastUnknownReloadMs = Number.NEGATIVE_INFINITY;
  return {
    seal(binding, payload) {
      const key = ring().current;
      return `${payload}.${key.id}.${tagOf(key, binding, payload)}`;
    },
    async open(binding, cursor) {
      const parts = cursor.split('.');
      if (parts.length !== 3 || !/^[1-9][0-9]{0,8}$/.test(parts[1])) return undefined;
      const [payload, idText, tag] = parts;
      const id = Number(idText);
      if (!ring().byId.has(id) && reload && clock.now() - lastUnknownReloadMs >= UNKNOWN_RELOAD_MS) {
        lastUnknownReloadMs = clock.now();
        await reload().catch(() => undefined);
      }
      const key = ring().byId.get(id);
      if (!key || clock.now() > (ring().validUntilMs.get(id) ?? 0)) return undefined;
      const expected = Buffer.from(tagOf(key, binding, payload));
      const given = Buffer.from(tag);
      return expected.length === given.length && timingSafeEqual(expected, given) ? payload : undefined;
    },
  };
}

/** A key of this process alone: for tools and tests that page without a database. */
export function createEphemeralCursorSigner(clock: { now(): number } = Date): CursorSigner {
  const ring = ringOf([{ id: 1, secret: randomBytes(32).toString('base64url'), createdAt: new Date(clock.now()) }]);
  return signerOver(() => ring, clock, undefined);
}

function newKey(id: number, nowMs: number): CursorKeyRecord {
  return { id, secret: randomBytes(32).toString('base64url'), createdAt: new Date(nowMs) };
}

/** The keys in the store, creating the first one if there is none (race-free across nodes). */
async function readKeys(store: Store, clock: { now(): number }): Promise<CursorKeyRecord[]> {
  const keys = await store.listCursorKeys();
  if (keys.length > 0) return keys;
  // Two nodes starting together both try id 1; one insert wins and both read the same key back.
  await store.insertCursorKey(newKey(1, clock.now()));
  return store.listCursorKeys();
}

export type StoredCursorSigner = CursorSigner & { reload(): Promise<void>; close(): void };

/** The signer over the database's keys, reread every minute and when a cursor names an unknown key. */
export async function createStoredCursorSigner(store: Store, clock: { now(): number } = Date): Promise<StoredCursorSigner> {
  let ring = ringOf(await readKeys(store, clock));
  const reload = async () => {
    ring = ringOf(await readKeys(store, clock));
  };
  const timer = setInterval(() => void reload().catch(() => undefined), RELOAD_MS);
  timer.unref();
  return { ...signerOver(() => ring, clock, reload), reload, close: () => clearInterval(timer) };
}

/** Makes a new signing key; the previous one keeps verifying for PREVIOUS_KEY_VALID_MS. Returns its id. */
export async function rotateCursorKey(store: Store, clock: { now(): number } = Date): Promise<number> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const keys = await readKeys(store, clock);
    const id = keys[0].id + 1;
    if (await store.insertCursorKey(newKey(id, clock.now()))) return id;
  }
  throw new Error('could not rotate the cursor key: other nodes kept rotating at the same time');
}
