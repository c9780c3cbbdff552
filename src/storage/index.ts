// Opens the configured Store: PostgreSQL when a database URL is set, else the embedded SQLite file
// in the data directory. Migrates before returning so callers always get a ready schema.

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createPostgresStore } from './postgres-store.ts';
import { createSqliteStore } from './sqlite-store.ts';
import type { Store } from './types.ts';
import { isConnectError } from './guard.ts';

export type OpenStoreOptions = {
  /** REELAY_DATABASE_URL: a postgres:// or postgresql:// URL. */
  databaseUrl?: string;
  dataDir: string;
  poolMax?: number;
  onError?: (error: Error) => void;
};

export { createKeyService, generateKey, hashSecret } from './keys.ts';
export { createUsageRecorder } from './usage-recorder.ts';
export { createPostgresStore } from './postgres-store.ts';
export { createSqliteStore } from './sqlite-store.ts';
export { createStoreGuard, isConnectError, type StoreGuard } from './guard.ts';


/** `host:port/database` of a PostgreSQL URL, never the user's password. */
export function describePostgresUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const host = url.hostname || url.searchParams.get('host') || 'localhost';
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || '(default database)';
  return `${host}:${url.port || '5432'}/${database}`;
}

function reasonOf(error: unknown, secret: string): string {
  const errors = error instanceof AggregateError ? error.errors : [error];
  const text = errors.map((e) => (e instanceof Error ? e.message : String(e))).filter(Boolean).join('; ') || 'unknown error';
  return secret === '' ? text : text.replaceAll(secret, '***');
}

async function openPostgres(databaseUrl: string, options: OpenStoreOptions): Promise<Store> {
  let where: string;
  let password: string;
  try {
    const url = new URL(databaseUrl);
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error('not a postgres URL');
    where = describePostgresUrl(databaseUrl);
    password = decodeURIComponent(url.password);
  } catch {
    throw new Error('REELAY_DATABASE_URL is not a valid postgres:// or postgresql:// URL');
  }
  const store = createPostgresStore({ connectionString: databaseUrl, poolMax: options.poolMax, onError: options.onError });
  try {
    await store.migrate();
    return store;
  } catch (error) {
    await store.close().catch(() => {});
    const reason = reasonOf(error, password);
    if (isConnectError(error)) {
      throw new Error(`Cannot connect to PostgreSQL at ${where}: ${reason} (check REELAY_DATABASE_URL)`);
    }
    throw new Error(`PostgreSQL schema migration failed at ${where}: ${reason}`);
  }
}

export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  await mkdir(options.dataDir, { recursive: true });
  const store = createSqliteStore({ path: join(options.dataDir, 'reelay.db') });
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
