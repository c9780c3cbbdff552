// Runs the Store contract on PostgreSQL in a schema of its own (created and dropped here) so
// parallel runs never collide. Skipped loudly when PostgreSQL is absent; under CI=true that fails.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import pg from 'pg';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../../src/storage/migrations.ts';
import { describePostgresUrl, openStore } from '../../src/storage/index.ts';
import { createPostgresStore } from '../../src/storage/postgres-store.ts';
import { runStoreContract } from './store-contract.ts';

// Tests may read the environment: point the suite at another server without editing it.
const BASE_URL = process.env.REELAY_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `reelay_test_${randomBytes(6).toString('hex')}`;
const url = `${BASE_URL}${BASE_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;

async function prepareSchema(): Promise<string | null> {
  const admin = new pg.Client({ connectionString: BASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await admin.end().catch(() => {});
  }
}

async function dropSchema(): Promise<void> {
  const admin = new pg.Client({ connectionString: BASE_URL, connectionTimeoutMillis: 3000 });
  await admin.connect();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await admin.end();
  }
}

const unreachable = await prepareSchema();

if (unreachable !== null) {
  test('postgres store contract', (t) => {
    const message = `PostgreSQL not reachable at ${describePostgresUrl(BASE_URL)} (${unreachable}): suite skipped`;
    if (process.env.CI === 'true') assert.fail(`${message} — CI=true requires PostgreSQL`);
    console.warn(`\n!!! ${message}\n`);
    t.skip(message);
  });
} else {
  after(dropSchema);

  runStoreContract('postgres', async () => createPostgresStore({ connectionString: url, poolMax: 10 }));

  test('postgres: schema_migrations records each version once after concurrent and repeated migrations', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT version, applied_at FROM schema_migrations ORDER BY version');
      assert.deepEqual(rows.map((r) => r.version), MIGRATIONS.map((m) => m.version));
      assert.equal(rows.at(-1)?.version, LATEST_SCHEMA_VERSION);
      assert.ok(rows[0].applied_at instanceof Date);
    } finally {
      await client.end();
    }
  });

  test('postgres: tables live in the search_path schema, not in public', async () => {
    const client = new pg.Client({ connectionString: BASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query(
        "SELECT table_schema FROM information_schema.tables WHERE table_name = 'api_keys' AND table_schema = $1",
        [schema],
      );
      assert.equal(rows.length, 1);
    } finally {
      await client.end();
    }
  });

  test('postgres: openStore returns a migrated store for a reachable database', async () => {
    const store = await openStore({ databaseUrl: url, dataDir: '/nonexistent' });
    try {
      const account = await store.createAccount(`open-${randomBytes(4).toString('hex')}`);
      assert.deepEqual(await store.getAccount(account.id), account);
    } finally {
      await store.close();
    }
  });

  test('postgres: openStore on a missing database fails naming it and REELAY_DATABASE_URL', async () => {
    const missing = new URL(BASE_URL);
    missing.pathname = `/${schema}_missing`;
    await assert.rejects(openStore({ databaseUrl: missing.href, dataDir: '/nonexistent' }), (error: Error) => {
      assert.match(error.message, /^Cannot connect to PostgreSQL at .*_missing: .*does not exist.*REELAY_DATABASE_URL/);
      return true;
    });
  });
}
