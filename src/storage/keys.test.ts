// API key format, hashing and the key service's refusal rules, on real SQLite stores.

import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, mock, test } from 'node:test';
import { createKeyService, generateKey, hashSecret, isWellFormedKey } from './keys.ts';
import { createSqliteStore } from './sqlite-store.ts';
import type { Store } from './types.ts';

let store: Store;
let now: Date;
const clock = () => now;

beforeEach(async () => {
  now = new Date('2030-01-01T00:00:00.000Z');
  store = createSqliteStore({ path: ':memory:' });
  await store.migrate();
});
afterEach(async () => {
  mock.restoreAll();
  await store.close();
});

test('a key is rly_ + base64url of 32 random bytes, displayed by its first 12 characters', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const { key, hash, prefix } = generateKey();
    assert.match(key, /^rly_[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(key.slice(4), 'base64url').length, 32);
    assert.equal(prefix, key.slice(0, 12));
    assert.equal(hash, hashSecret(key));
    seen.add(key);
  }
  assert.equal(seen.size, 50);
});

test('hashSecret is hex SHA-256', () => {
  assert.equal(hashSecret('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

test('create makes the default account when none is named and authenticate returns the record', async () => {
  const keys = createKeyService({ store, clock });
  const { key, record } = await keys.create({ name: 'laptop' });
  assert.equal((await store.getAccount(record.accountId))?.name, 'default');
  assert.equal(record.prefix, key.slice(0, 12));
  assert.equal(record.hash, hashSecret(key));
  assert.deepEqual(await keys.authenticate(key), { ...record, lastUsedAt: now });
  const second = await keys.create({ name: 'phone' });
  assert.equal(second.record.accountId, record.accountId, 'the default account is reused');
});

test('create uses a named account or an existing account id, and refuses an unknown id', async () => {
  const keys = createKeyService({ store, clock });
  const { record } = await keys.create({ accountName: 'acme', name: 'ci', oauthClientId: 'c1', resource: 'https://mcp.test' });
  const acme = await store.findAccountByName('acme');
  assert.equal(record.accountId, acme?.id);
  assert.equal(record.oauthClientId, 'c1');
  assert.equal(record.resource, 'https://mcp.test');
  assert.equal((await keys.create({ accountId: acme?.id, name: 'other' })).record.accountId, acme?.id);
  await assert.rejects(keys.create({ accountId: crypto.randomUUID(), name: 'x' }), /Unknown account/);
  await assert.rejects(keys.create({ name: '  ' }), /non-empty name/);
});

test('the database file never holds a plaintext key', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'reelay-keys-'));
  try {
    const fileStore = createSqliteStore({ path: join(dir, 'reelay.db') });
    await fileStore.migrate();
    const keys = createKeyService({ store: fileStore, clock });
    const { key, record } = await keys.create({ name: 'secret-check' });
    assert.ok(await keys.authenticate(key));
    const bytes = () => Buffer.concat(readdirSync(dir).map((f) => readFileSync(join(dir, f))));
    const check = (label: string) => {
      const all = bytes();
      assert.ok(all.includes(Buffer.from(record.hash)), `${label}: the hash is stored (the search works)`);
      assert.equal(all.includes(Buffer.from(key)), false, `${label}: the whole key is absent`);
      assert.equal(all.includes(Buffer.from(key.slice(12))), false, `${label}: the secret part is absent`);
    };
    check('while open (WAL)');
    await fileStore.close();
    check('after close');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a revoked key is refused at once, on every node', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'reelay-keys-'));
  const path = join(dir, 'reelay.db');
  const [a, b] = [createSqliteStore({ path }), createSqliteStore({ path })];
  try {
    await a.migrate();
    const [nodeA, nodeB] = [createKeyService({ store: a, clock }), createKeyService({ store: b, clock })];
    const { key, record } = await nodeA.create({ name: 'shared' });
    assert.ok(await nodeA.authenticate(key));
    assert.equal(await nodeB.revoke(record.id), 1);
    assert.equal(await nodeA.authenticate(key), null);
    assert.equal(await nodeB.authenticate(key), null);
  } finally {
    await Promise.all([a.close(), b.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('revoke accepts the display prefix or the whole key and revokes only that key', async () => {
  const keys = createKeyService({ store, clock });
  const tick = () => (now = new Date(now.getTime() + 1));
  const one = await keys.create({ name: 'one' });
  tick();
  const two = await keys.create({ name: 'two' });
  tick();
  const three = await keys.create({ name: 'three' });
  assert.equal(await keys.revoke(one.record.prefix), 1);
  assert.equal(await keys.revoke(two.key), 1);
  assert.equal(await keys.revoke(generateKey().key), 0, 'an unknown whole key revokes nothing');
  assert.equal(await keys.revoke(''), 0);
  assert.equal(await keys.authenticate(one.key), null);
  assert.equal(await keys.authenticate(two.key), null);
  assert.ok(await keys.authenticate(three.key));
  assert.deepEqual((await keys.list()).map((k) => [k.name, k.revokedAt !== null]), [['one', true], ['two', true], ['three', false]]);
});

test('an expired key is refused from its expiry instant on', async () => {
  const keys = createKeyService({ store, clock });
  const { key } = await keys.create({ name: 'short', expiresAt: new Date(now.getTime() + 1000) });
  now = new Date(now.getTime() + 999);
  assert.ok(await keys.authenticate(key));
  now = new Date(now.getTime() + 1);
  assert.equal(await keys.authenticate(key), null);
});

test('malformed and unknown keys are refused; malformed ones never reach the store', async () => {
  const findKeyByHash = mock.method(store, 'findKeyByHash');
  const keys = createKeyService({ store, clock });
  const { key } = await keys.create({ name: 'real' });
  const malformed = ['', 'rly_', 'Bearer ' + key, key + 'A', key.slice(0, -1), 'xyz_' + key.slice(4), key.slice(0, -1) + '=', key.toUpperCase().replace('RLY_', 'rly+')];
  for (const bad of malformed) assert.equal(await keys.authenticate(bad), null, JSON.stringify(bad));
  assert.equal(findKeyByHash.mock.callCount(), 0);
  assert.equal(isWellFormedKey(key), true);
  assert.equal(await keys.authenticate(generateKey().key), null, 'well-formed but unknown');
});

test('the stored hash is compared with timingSafeEqual on equal-length buffers', async () => {
  const keys = createKeyService({ store, clock });
  const { key } = await keys.create({ name: 'ct' });
  const compare = mock.method(crypto, 'timingSafeEqual');
  assert.ok(await keys.authenticate(key));
  assert.equal(compare.mock.callCount(), 1);
  const [x, y] = compare.mock.calls[0].arguments as [Buffer, Buffer];
  assert.equal(x.length, 32);
  assert.equal(y.length, 32);
});

test('a record whose stored hash differs from the presented key is refused', async () => {
  const keys = createKeyService({ store, clock });
  const { record } = await keys.create({ name: 'victim' });
  mock.method(store, 'findKeyByHash', async () => record);
  assert.equal(await keys.authenticate(generateKey().key), null);
});

test('lastUsedAt is written at most once a minute per key', async () => {
  const touchKey = mock.method(store, 'touchKey');
  const keys = createKeyService({ store, clock });
  const { key } = await keys.create({ name: 'busy' });
  await Promise.all([keys.authenticate(key), keys.authenticate(key), keys.authenticate(key)]);
  assert.equal(touchKey.mock.callCount(), 1);
  now = new Date(now.getTime() + 59_999);
  assert.ok(await keys.authenticate(key));
  assert.equal(touchKey.mock.callCount(), 1);
  now = new Date(now.getTime() + 1);
  const record = await keys.authenticate(key);
  assert.equal(touchKey.mock.callCount(), 2);
  assert.deepEqual(record?.lastUsedAt, now);
  assert.deepEqual((await store.listKeys())[0].lastUsedAt, now);
});
