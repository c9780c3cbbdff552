// Runs the Store contract on a temporary SQLite file, plus what only SQLite has: WAL, pragmas,
// and two threads migrating one fresh file at the same instant.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../../src/storage/migrations.ts';
import { createSqliteStore } from '../../src/storage/sqlite-store.ts';
import { runStoreContract } from './store-contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'reelay-sqlite-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const contractFile = join(dir, 'contract.db');
runStoreContract('sqlite', async () => createSqliteStore({ path: contractFile }));

test('sqlite: schema_migrations records each version once after concurrent and repeated migrations', () => {
  const db = new DatabaseSync(contractFile, { readOnly: true });
  try {
    const rows = db.prepare('SELECT version, applied_at FROM schema_migrations ORDER BY version').all();
    assert.deepEqual(rows.map((r) => r.version), MIGRATIONS.map((m) => m.version));
    assert.equal(rows.at(-1)?.version, LATEST_SCHEMA_VERSION);
    assert.equal(typeof rows[0].applied_at, 'number');
  } finally {
    db.close();
  }
});

test('sqlite: a file store runs in WAL mode', async () => {
  const path = join(dir, 'pragmas.db');
  const store = createSqliteStore({ path, busyTimeoutMs: 1234 });
  await store.migrate();
  await store.close();
  const db = new DatabaseSync(path);
  try {
    assert.equal(db.prepare('PRAGMA journal_mode').get()?.journal_mode, 'wal');
  } finally {
    db.close();
  }
});

test('sqlite: an in-memory store works for tests and tools', async () => {
  const store = createSqliteStore({ path: ':memory:' });
  await store.migrate();
  const account = await store.createAccount('default');
  assert.deepEqual(await store.findAccountByName('default'), account);
  await store.close();
  await store.close();
});

test('sqlite: two threads migrating one fresh file at the same instant both succeed', { timeout: 90_000 }, async () => {
  const path = join(dir, 'race.db');
  const start = new Int32Array(new SharedArrayBuffer(4));
  const url = new URL('./sqlite-migrate-worker.ts', import.meta.url);
  const workers = [0, 1].map(() => new Worker(url, { workerData: { path, start } }));
  // Every listener is attached before anything can happen, so no event is missed.
  const once = <T>(event: string) =>
    workers.map((worker) => new Promise<T>((resolve, reject) => {
      worker.once(event, resolve);
      worker.once('error', reject);
    }));
  const online = once<void>('online');
  const results = once<{ ok: boolean; message?: string }>('message');
  const exited = once<number>('exit');
  await Promise.all(online);
  Atomics.store(start, 0, 1);
  Atomics.notify(start, 0);
  assert.deepEqual(await Promise.all(results), [{ ok: true }, { ok: true }]);
  await Promise.all(exited);
  const store = createSqliteStore({ path });
  try {
    await store.migrate();
    const account = await store.createAccount('after-race');
    assert.deepEqual(await store.getAccount(account.id), account);
  } finally {
    await store.close();
  }
});
