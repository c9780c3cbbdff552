// openStore: SQLite by default (directory created, schema migrated), and a clear, password-free
// failure when the configured PostgreSQL cannot be reached.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { describePostgresUrl, openStore } from './index.ts';

test('without a database URL the store is a migrated SQLite file in a created data dir', async () => {
  const root = mkdtempSync(join(tmpdir(), 'reelay-open-'));
  const dataDir = join(root, 'nested', 'data');
  try {
    const store = await openStore({ dataDir });
    assert.ok(existsSync(join(dataDir, 'reelay.db')));
    const account = await store.createAccount('default');
    assert.deepEqual(await store.findAccountByName('default'), account);
    await store.close();
    const again = await openStore({ dataDir });
    assert.deepEqual(await again.findAccountByName('default'), account, 'reopening keeps the data');
    await again.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('describePostgresUrl shows host, port and database but never credentials', () => {
  assert.equal(describePostgresUrl('postgres://alice:s3cret@db.internal:6543/reelay?sslmode=require'), 'db.internal:6543/reelay');
  assert.equal(describePostgresUrl('postgresql://db.internal/app'), 'db.internal:5432/app');
});

test('an unreachable PostgreSQL fails fast naming the address and REELAY_DATABASE_URL, without the password', async () => {
  // A port that was just free: connecting to it is refused.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  const databaseUrl = `postgres://reelay:hunter2-secret@127.0.0.1:${port}/reelay`;
  await assert.rejects(openStore({ databaseUrl, dataDir: '/nonexistent' }), (error: Error) => {
    assert.ok(!(error as { code?: unknown }).code, 'a plain Error, not an AppError');
    assert.match(error.message, new RegExp(`^Cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${port}/reelay: `));
    assert.match(error.message, /REELAY_DATABASE_URL/);
    assert.doesNotMatch(error.message, /hunter2/);
    return true;
  });
});

test('a database URL that is not a postgres URL is refused without echoing it', async () => {
  await assert.rejects(openStore({ databaseUrl: 'mysql://u:topsecret@h/db', dataDir: '/nonexistent' }), (error: Error) => {
    assert.match(error.message, /REELAY_DATABASE_URL is not a valid/);
    assert.doesNotMatch(error.message, /topsecret/);
    return true;
  });
});
