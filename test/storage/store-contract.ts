// The Store contract suite, run against every backend (SQLite, PostgreSQL). `makeStore` opens a new
// connection to one database that is fresh when the suite starts; tests keep apart by unique names.

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { runOAuthContract } from './store-contract-oauth.ts';
import { newKey, uid, type MakeStore } from './fixtures.ts';
import type { ApiKeyRecord, Store } from '../../src/storage/types.ts';

export type { MakeStore };

export function runStoreContract(name: string, makeStore: MakeStore): void {
  describe(`Store contract: ${name}`, () => {
    test('two connections migrating a fresh database at once both succeed and share one schema', async () => {
      const [a, b] = await Promise.all([makeStore(), makeStore()]);
      try {
        await Promise.all([a.migrate(), b.migrate()]);
        const account = await a.createAccount(uid('migrated'));
        assert.deepEqual(await b.getAccount(account.id), account);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    // Runs while the database is still fresh: no key exists yet.
    test('two nodes creating the first key at once on an empty store write exactly one', async () => {
      const [a, b] = await Promise.all([makeStore(), makeStore()]);
      try {
        await Promise.all([a.migrate(), b.migrate()]);
        assert.deepEqual(await a.listKeys(), [], 'the store starts without keys');
        const account = await a.createAccount(uid('first'));
        const attempts = await Promise.all([a, b, a, b].map((store) => store.insertFirstKey(newKey(account.id))));
        const written = attempts.filter((record) => record !== null);
        assert.equal(written.length, 1);
        assert.deepEqual((await b.listKeys()).map((k) => k.id), [written[0]?.id]);
        assert.equal(await a.insertFirstKey(newKey(account.id)), null, 'a later start sees the key and writes none');
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    describe('with a migrated store', () => {
      let store: Store;
      before(async () => {
        store = await makeStore();
        await store.migrate();
      });
      after(async () => store.close());

      runAccountsAndKeys(() => store);
      runOAuthContract(() => store, makeStore);
      runUsage(() => store);

      test('migrate again is a no-op that keeps every row', async () => {
        const account = await store.createAccount(uid('kept'));
        await store.migrate();
        await store.migrate();
        assert.deepEqual(await store.getAccount(account.id), account);
      });
    });
  });
}

function runAccountsAndKeys(get: () => Store): void {
  test('an account is found by id and by name; unknown ones are null', async () => {
    const store = get();
    const account = await store.createAccount(uid('acct'));
    assert.ok(account.id.length > 0);
    assert.ok(account.createdAt instanceof Date);
    assert.deepEqual(await store.getAccount(account.id), account);
    assert.deepEqual(await store.findAccountByName(account.name), account);
    assert.equal(await store.getAccount(randomUUID()), null);
    assert.equal(await store.findAccountByName(uid('missing')), null);
  });

  test('account names are unique', async () => {
    const store = get();
    const name = uid('dup');
    await store.createAccount(name);
    await assert.rejects(store.createAccount(name));
  });

  test('an inserted key round-trips by hash with dates to the millisecond', async () => {
    const store = get();
    const account = await store.createAccount(uid('acct'));
    const input = newKey(account.id, {
      createdAt: new Date('2031-02-03T04:05:06.789Z'),
      expiresAt: new Date('2032-02-03T04:05:06.123Z'),
      oauthClientId: 'client-1',
      resource: 'https://mcp.example.test',
    });
    const record = await store.insertKey(input);
    assert.deepEqual(record, { ...input, revokedAt: null, lastUsedAt: null });
    assert.deepEqual(await store.findKeyByHash(input.hash), record);
    assert.equal(await store.findKeyByHash('f'.repeat(64)), null);
    assert.deepEqual(await store.findKeyById(record.id), record);
    assert.equal(await store.findKeyById('no-such-key'), null);
  });

  test('insertKey defaults createdAt to now and refuses an unknown account or a duplicate hash', async () => {
    const store = get();
    const account = await store.createAccount(uid('acct'));
    const { createdAt: _omit, ...withoutDate } = newKey(account.id);
    const start = Date.now();
    const record = await store.insertKey(withoutDate);
    assert.ok(Math.abs(record.createdAt.getTime() - start) < 60_000);
    await assert.rejects(store.insertKey(newKey(randomUUID())), 'foreign keys must be enforced');
    await assert.rejects(store.insertKey(newKey(account.id, { hash: record.hash })));
  });

  test('listKeys filters by account and lists in creation order', async () => {
    const store = get();
    const [a, b] = [await store.createAccount(uid('a')), await store.createAccount(uid('b'))];
    const first = await store.insertKey(newKey(a.id, { createdAt: new Date(1_000_000) }));
    const second = await store.insertKey(newKey(a.id, { createdAt: new Date(2_000_000) }));
    const other = await store.insertKey(newKey(b.id));
    assert.deepEqual(await store.listKeys(a.id), [first, second]);
    const everything = await store.listKeys();
    for (const key of [first, second, other]) assert.ok(everything.some((k) => k.id === key.id));
  });

  test('revokeKey by id revokes once and keeps the first revocation time', async () => {
    const store = get();
    const account = await store.createAccount(uid('acct'));
    const key = await store.insertKey(newKey(account.id));
    const at = new Date('2030-01-01T00:00:00.000Z');
    assert.equal(await store.revokeKey(key.id, at), 1);
    assert.equal(await store.revokeKey(key.id, new Date('2030-06-01T00:00:00.000Z')), 0);
    assert.deepEqual((await store.findKeyByHash(key.hash))?.revokedAt, at);
    assert.equal(await store.revokeKey(randomUUID()), 0);
  });

  test('revokeKey by prefix revokes every key with that display prefix and no other', async () => {
    const store = get();
    const account = await store.createAccount(uid('acct'));
    const prefix = `rly_${randomUUID().slice(0, 8)}`;
    const twins = [await store.insertKey(newKey(account.id, { prefix })), await store.insertKey(newKey(account.id, { prefix }))];
    const bystander = await store.insertKey(newKey(account.id));
    assert.equal(await store.revokeKey(prefix), 2);
    for (const key of twins) assert.ok((await store.findKeyByHash(key.hash))?.revokedAt instanceof Date);
    assert.equal((await store.findKeyByHash(bystander.hash))?.revokedAt, null);
  });

  test('touchKey records lastUsedAt', async () => {
    const store = get();
    const account = await store.createAccount(uid('acct'));
    const key = await store.insertKey(newKey(account.id));
    const at = new Date('2030-03-04T05:06:07.089Z');
    await store.touchKey(key.id, at);
    assert.deepEqual((await store.findKeyByHash(key.hash))?.lastUsedAt, at);
  });
}

function runUsage(get: () => Store): void {
  test('usage aggregates per key, UTC day and operation', async () => {
    const store = get();
    const account = await store.createAccount(uid('acct'));
    const key: ApiKeyRecord = await store.insertKey(newKey(account.id));
    const lastMs = new Date('2030-05-01T23:59:59.999Z');
    const nextDay = new Date('2030-05-02T00:00:00.000Z');
    await store.addUsage(key.id, 'get_video', new Date('2030-05-01T00:00:00.000Z'));
    await store.addUsage(key.id, 'get_video', lastMs, 4);
    await store.addUsage(key.id, 'get_user', lastMs);
    await store.addUsage(key.id, 'get_video', nextDay);
    assert.deepEqual(await store.usage({ keyId: key.id }), [
      { keyId: key.id, day: '2030-05-01', operation: 'get_user', count: 1 },
      { keyId: key.id, day: '2030-05-01', operation: 'get_video', count: 5 },
      { keyId: key.id, day: '2030-05-02', operation: 'get_video', count: 1 },
    ]);
    assert.deepEqual(await store.usage({ keyId: key.id, sinceDay: '2030-05-02' }), [
      { keyId: key.id, day: '2030-05-02', operation: 'get_video', count: 1 },
    ]);
  });

  test('concurrent usage increments are never lost', async () => {
    const store = get();
    const account = await store.createAccount(uid('acct'));
    const key = await store.insertKey(newKey(account.id));
    const at = new Date('2030-07-01T12:00:00.000Z');
    await Promise.all(Array.from({ length: 20 }, () => store.addUsage(key.id, 'op', at)));
    assert.deepEqual(await store.usage({ keyId: key.id }), [{ keyId: key.id, day: '2030-07-01', operation: 'op', count: 20 }]);
  });

  test('usage filters by account through its keys', async () => {
    const store = get();
    const [a, b] = [await store.createAccount(uid('a')), await store.createAccount(uid('b'))];
    const [ka, kb] = [await store.insertKey(newKey(a.id)), await store.insertKey(newKey(b.id))];
    const at = new Date('2030-06-01T10:00:00.000Z');
    await store.addUsage(ka.id, 'op', at, 2);
    await store.addUsage(kb.id, 'op', at, 3);
    assert.deepEqual(await store.usage({ accountId: a.id }), [{ keyId: ka.id, day: '2030-06-01', operation: 'op', count: 2 }]);
    const all = await store.usage({ sinceDay: '2030-06-01' });
    assert.ok(all.some((row) => row.keyId === kb.id && row.count === 3));
  });
}
