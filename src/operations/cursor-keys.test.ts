// Sealed cursors: intact ones open, anything altered, foreign, unknown or expired does not; keys
// come from the store, the first one race-free across nodes, and rotation keeps old cursors a day.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../storage/index.ts';
import { createEphemeralCursorSigner, createStoredCursorSigner, PREVIOUS_KEY_VALID_MS, rotateCursorKey } from './cursor-keys.ts';

const PAYLOAD = Buffer.from(JSON.stringify({ k: 'videos:newest', p: '1700000000000', o: 3, n: 35 })).toString('base64url');
const BINDING = 'videos:newest\n/v1/platform/users/alice/videos\n';

function flip(text: string, at: number): string {
  const c = text[at] === 'A' ? 'B' : 'A';
  return text.slice(0, at) + c + text.slice(at + 1);
}

test('a sealed cursor opens for its collection only; any changed character is refused', async () => {
  const signer = createEphemeralCursorSigner();
  const cursor = signer.seal(BINDING, PAYLOAD);
  assert.equal(await signer.open(BINDING, cursor), PAYLOAD);
  for (const at of [0, PAYLOAD.length - 1, cursor.length - 1, cursor.length - 10]) {
    assert.equal(await signer.open(BINDING, flip(cursor, at)), undefined, `changed at ${at}`);
  }
  // Another subject, order or operation: the same cursor is foreign there.
  for (const other of [BINDING.replace('alice', 'bob'), BINDING.replace('newest', 'popular'), BINDING.replace('videos', 'likes')]) {
    assert.equal(await signer.open(other, cursor), undefined, other);
  }
  assert.equal(await signer.open(BINDING, PAYLOAD), undefined, 'an unsealed payload');
  assert.equal(await signer.open(BINDING, cursor.replace(/\.1\./, '.2.')), undefined, 'an unknown key id');
  assert.equal(await createEphemeralCursorSigner().open(BINDING, cursor), undefined, 'another key');
});

test('nodes on one store share the first key, made once even when they start together; rotation keeps old cursors for a day', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'reelay-cursor-keys-'));
  const store = await openStore({ dataDir: dir });
  let now = Date.parse('2026-11-23T00:00:00Z');
  const clock = { now: () => now };
  try {
    const [a, b] = await Promise.all([createStoredCursorSigner(store, clock), createStoredCursorSigner(store, clock)]);
    assert.equal((await store.listCursorKeys()).length, 1);
    const before = a.seal(BINDING, PAYLOAD);
    assert.equal(await b.open(BINDING, before), PAYLOAD, 'node b opens what node a sealed');

    now += 1000;
    assert.equal(await rotateCursorKey(store, clock), 2);
    await a.reload();
    const after = a.seal(BINDING, PAYLOAD);
    assert.match(after, /\.2\./);
    // b has not reloaded yet: the unknown key id makes it read the keys again.
    assert.equal(await b.open(BINDING, after), PAYLOAD);
    assert.equal(await b.open(BINDING, before), PAYLOAD, 'the previous key still verifies');
    now += PREVIOUS_KEY_VALID_MS + 1;
    assert.equal(await b.open(BINDING, before), undefined, 'a day after the rotation it no longer does');
    assert.equal(await b.open(BINDING, after), PAYLOAD);
    a.close();
    b.close();
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});
