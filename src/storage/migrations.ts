// Versioned schema migrations for both backends: an ordered list, applied once each and recorded
// in `schema_migrations`. Runners serialise concurrent nodes (PostgreSQL advisory lock, SQLite BEGIN IMMEDIATE).

import type { DatabaseSync } from 'node:sqlite';
import type { Pool } from 'pg';

export type Migration = {
  version: number;
  name: string;
  /** Dates are integer milliseconds since the epoch. */
  sqlite: string;
  /** Dates are timestamptz; metadata is jsonb. */
  postgres: string;
};

/** Arbitrary constant shared by every reelay node: the key of the migration advisory lock. */
export const MIGRATION_LOCK_ID = 7_270_113_301;

const SCHEMA_SQLITE = `
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  revoked_at INTEGER,
  last_used_at INTEGER,
  oauth_client_id TEXT,
  resource TEXT
);
CREATE INDEX api_keys_prefix ON api_keys(prefix);
CREATE INDEX api_keys_account ON api_keys(account_id);
CREATE TABLE oauth_clients (
  client_id TEXT PRIMARY KEY,
  secret_hash TEXT,
  metadata TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER
);
CREATE INDEX oauth_clients_created ON oauth_clients(created_at);
CREATE TABLE oauth_auth_codes (
  code_hash TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  resource TEXT,
  scope TEXT,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  issued_key_id TEXT,
  issued_refresh_hash TEXT
);
CREATE TABLE oauth_refresh_tokens (
  token_hash TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  resource TEXT,
  scope TEXT,
  family_id TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  rotated_at INTEGER,
  revoked_at INTEGER,
  key_id TEXT
);
CREATE INDEX oauth_refresh_tokens_family ON oauth_refresh_tokens(family_id);
CREATE TABLE usage_daily (
  key_id TEXT NOT NULL,
  day TEXT NOT NULL,
  operation TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (key_id, day, operation)
);
CREATE INDEX usage_daily_day ON usage_daily(day);
`;

// Same tables for PostgreSQL; only column types differ (dates as timestamptz, metadata as jsonb).
const SCHEMA_POSTGRES = SCHEMA_SQLITE.replaceAll(' INTEGER', ' BIGINT')
  .replace(/(created_at|expires_at|revoked_at|last_used_at|used_at|rotated_at) BIGINT/g, '$1 TIMESTAMPTZ')
  .replace('metadata TEXT NOT NULL', 'metadata JSONB NOT NULL');

// Watches (src/watches/): times are integer ms on both backends, so one set of queries serves both.
const WATCHES_SQLITE = `
CREATE TABLE watches (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  kind TEXT NOT NULL,
  target TEXT NOT NULL,
  every_ms INTEGER NOT NULL,
  webhook_url TEXT,
  webhook_secret TEXT,
  events TEXT NOT NULL,
  status TEXT NOT NULL,
  paused_reason TEXT,
  failures INTEGER NOT NULL,
  last_error TEXT,
  next_run_at INTEGER NOT NULL,
  last_run_at INTEGER,
  lease_until INTEGER,
  state TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX watches_owner ON watches(owner);
CREATE INDEX watches_due ON watches(status, next_run_at);
CREATE TABLE watch_snapshots (
  watch_id TEXT NOT NULL REFERENCES watches(id) ON DELETE CASCADE,
  at INTEGER NOT NULL,
  metrics TEXT NOT NULL,
  PRIMARY KEY (watch_id, at)
);
CREATE INDEX watch_snapshots_at ON watch_snapshots(at);
CREATE TABLE watch_deliveries (
  id TEXT PRIMARY KEY,
  watch_id TEXT NOT NULL REFERENCES watches(id) ON DELETE CASCADE,
  event_type TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  next_attempt_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  lease_until INTEGER,
  last_status INTEGER,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  delivered_at INTEGER
);
CREATE INDEX watch_deliveries_due ON watch_deliveries(status, next_attempt_at);
CREATE INDEX watch_deliveries_watch ON watch_deliveries(watch_id, created_at);
`;
const WATCHES_POSTGRES = WATCHES_SQLITE.replace(/(_at|_ms|lease_until|\bat) INTEGER/g, '$1 BIGINT');

export const MIGRATIONS: readonly Migration[] = Object.freeze([
  { version: 1, name: 'initial schema', sqlite: SCHEMA_SQLITE, postgres: SCHEMA_POSTGRES },
  {
    version: 2,
    name: 'cursor keys',
    // Keys that authenticate collection cursors, shared by every node; the highest id signs.
    sqlite: 'CREATE TABLE cursor_keys (id INTEGER PRIMARY KEY, secret TEXT NOT NULL, created_at INTEGER NOT NULL);',
    postgres: 'CREATE TABLE cursor_keys (id BIGINT PRIMARY KEY, secret TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL);',
  },
  { version: 3, name: 'watches', sqlite: WATCHES_SQLITE, postgres: WATCHES_POSTGRES },
]);

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

const CREATE_TABLE_SQLITE =
  'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)';
const CREATE_TABLE_POSTGRES =
  'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)';

function pending(applied: Iterable<number>, migrations: readonly Migration[]): Migration[] {
  const done = new Set(applied);
  return migrations.filter((m) => !done.has(m.version)).sort((a, b) => a.version - b.version);
}

/**
 * Applies pending migrations in one IMMEDIATE transaction: the write lock is taken before reading
 * `schema_migrations`, so a second connection waits (busy_timeout) and then finds nothing to do.
 */
export function migrateSqlite(db: DatabaseSync, migrations: readonly Migration[] = MIGRATIONS, now = Date.now): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(CREATE_TABLE_SQLITE);
    const rows = db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[];
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const migration of pending(rows.map((r) => r.version), migrations)) {
      db.exec(migration.sqlite);
      record.run(migration.version, migration.name, now());
    }
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Applies pending migrations in one transaction holding a transaction-scoped advisory lock, taken
 * before anything else so two nodes starting together never race on CREATE TABLE.
 */
export async function migratePostgres(pool: Pool, migrations: readonly Migration[] = MIGRATIONS): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
    await client.query(CREATE_TABLE_POSTGRES);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    for (const migration of pending(rows.map((r) => r.version), migrations)) {
      await client.query(migration.postgres);
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, now())', [
        migration.version,
        migration.name,
      ]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
