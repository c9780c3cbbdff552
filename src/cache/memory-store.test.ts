// The memory store keeps its byte budget and evicts least recently used entries first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryStore, ENTRY_OVERHEAD_BYTES } from './memory-store.ts';
import type { StoredEntry } from './types.ts';

const entry = (text: string): StoredEntry => ({ body: Buffer.from(text), etag: '"e"', storedAtMs: 0 });

test('the calculated size never exceeds maxBytes, however many distinct keys are inserted', async () => {
  const maxBytes = 64 * 1024;
  const store = createMemoryStore({ maxBytes });
  let inserted = 0;
  for (let i = 0; i < 5000; i += 1) {
    await store.set(`op:video:${i}`, entry('x'.repeat(100 + (i % 900))), 60);
    inserted += 100 + (i % 900);
    assert.ok(store.sizeBytes() <= maxBytes, `size ${store.sizeBytes()} after ${i + 1} inserts`);
  }
  assert.ok(inserted > 40 * maxBytes, 'the test must overflow the budget many times');
  assert.ok(store.sizeBytes() > maxBytes / 2, 'the budget is used, not just respected');
});

test('size accounts for body, key and per-entry overhead', async () => {
  const store = createMemoryStore({ maxBytes: 10_000 });
  await store.set('abc', entry('12345'), 60);
  assert.equal(store.sizeBytes(), 5 + 3 + 3 + ENTRY_OVERHEAD_BYTES);
});

test('the least recently used entry is evicted first', async () => {
  const perEntry = 100 + 2 + 3 + ENTRY_OVERHEAD_BYTES;
  const store = createMemoryStore({ maxBytes: perEntry * 3 });
  for (const key of ['k1', 'k2', 'k3']) await store.set(key, entry('x'.repeat(100)), 60);
  await store.get('k1');
  await store.set('k4', entry('x'.repeat(100)), 60);
  assert.ok(await store.get('k1'), 'recently read entry survives');
  assert.equal(await store.get('k2'), undefined, 'least recently used entry is gone');
  assert.ok(await store.get('k3'));
  assert.ok(await store.get('k4'));
});

test('an entry larger than the whole budget is not stored and drops its older version', async () => {
  const store = createMemoryStore({ maxBytes: 1000 });
  await store.set('k', entry('small'), 60);
  await store.set('k', entry('x'.repeat(2000)), 60);
  assert.equal(await store.get('k'), undefined);
  assert.ok(store.sizeBytes() <= 1000);
});

test('close empties the store', async () => {
  const store = createMemoryStore({ maxBytes: 1000 });
  await store.set('k', entry('v'), 60);
  await store.close();
  assert.equal(store.sizeBytes(), 0);
});

test('a non-positive budget is refused at creation', () => {
  assert.throws(() => createMemoryStore({ maxBytes: 0 }), RangeError);
});
