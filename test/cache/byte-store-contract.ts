// The one behaviour every ByteStore must have (memory LRU, Redis), run against each backend.
import { describe, test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import type { ByteStore, StoredEntry } from '../../src/cache/types.ts';

export type StoreHarness = {
  store: ByteStore;
  /** Moves the store's notion of time forward when it can; undefined when expiry cannot be faked. */
  elapseMs?: (ms: number) => void;
  /** Milliseconds the backend will keep `key`, when it can say (Redis PTTL). */
  remainingTtlMs?: (key: string) => Promise<number | undefined>;
  cleanup(): Promise<void>;
};

function entry(body: Buffer, storedAtMs = 1_700_000_000_123): StoredEntry {
  return { body, etag: '"abc-DEF_123"', storedAtMs };
}

/** Every byte value, odd lengths, invalid UTF-8: anything a lossy string conversion would break. */
function awkwardBytes(): Buffer {
  const all = Buffer.alloc(256 * 3 + 1);
  for (let i = 0; i < all.length; i += 1) all[i] = (i * 7) % 256;
  return all;
}

export function runByteStoreContract(name: string, makeHarness: () => Promise<StoreHarness>): void {
  describe(`ByteStore contract: ${name}`, () => {
    let h: StoreHarness;
    beforeEach(async () => {
      h = await makeHarness();
    });
    afterEach(async () => {
      await h.store.close();
      await h.cleanup();
    });

    test('a key never set reads as undefined', async () => {
      assert.equal(await h.store.get('absent'), undefined);
    });

    test('body, etag and storedAtMs round-trip byte for byte', async () => {
      const stored = entry(awkwardBytes());
      await h.store.set('k', stored, 60);
      const read = await h.store.get('k');
      assert.ok(read);
      assert.ok(Buffer.isBuffer(read.body));
      assert.deepEqual([...read.body], [...stored.body]);
      assert.equal(read.etag, stored.etag);
      assert.equal(read.storedAtMs, stored.storedAtMs);
    });

    test('an empty body and a unicode key round-trip', async () => {
      await h.store.set('op:user:ünïcødé:😀', entry(Buffer.alloc(0)), 60);
      const read = await h.store.get('op:user:ünïcødé:😀');
      assert.equal(read?.body.length, 0);
    });

    test('changing the caller buffer after set does not change the stored body', async () => {
      const body = Buffer.from('{"a":1}');
      await h.store.set('k', entry(body), 60);
      body.fill(0);
      assert.equal((await h.store.get('k'))?.body.toString(), '{"a":1}');
    });

    test('set replaces the previous entry of the same key', async () => {
      await h.store.set('k', entry(Buffer.from('one'), 1), 60);
      await h.store.set('k', entry(Buffer.from('two'), 2), 60);
      const read = await h.store.get('k');
      assert.equal(read?.body.toString(), 'two');
      assert.equal(read?.storedAtMs, 2);
    });

    test('delete removes only its key', async () => {
      await h.store.set('a', entry(Buffer.from('a')), 60);
      await h.store.set('b', entry(Buffer.from('b')), 60);
      await h.store.delete('a');
      await h.store.delete('never-set');
      assert.equal(await h.store.get('a'), undefined);
      assert.equal((await h.store.get('b'))?.body.toString(), 'b');
    });

    test('a ttl of zero stores nothing and removes an older entry', async () => {
      await h.store.set('k', entry(Buffer.from('old')), 60);
      await h.store.set('k', entry(Buffer.from('new')), 0);
      assert.equal(await h.store.get('k'), undefined);
    });

    test('an entry expires after its ttl and not before', async (t) => {
      await h.store.set('k', entry(Buffer.from('v')), 2);
      if (h.remainingTtlMs) {
        const ttlMs = await h.remainingTtlMs('k');
        assert.ok(ttlMs !== undefined && ttlMs > 1000 && ttlMs <= 2000, `ttl ${ttlMs}`);
      }
      if (!h.elapseMs) {
        if (!h.remainingTtlMs) t.skip('backend can neither fake time nor report ttl');
        return;
      }
      h.elapseMs(1999);
      assert.ok(await h.store.get('k'));
      h.elapseMs(2);
      assert.equal(await h.store.get('k'), undefined);
    });
  });
}
