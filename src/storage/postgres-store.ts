// The scaled-out Store on PostgreSQL through a pg Pool; same semantics as the SQLite store, so
// any node can redeem a code or rotate a token issued by another node.

import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { migratePostgres } from './migrations.ts';
import { toAccount, toApiKey, toAuthCode, toClient, toRefreshToken, toUsage, utcDay, type Row } from './rows.ts';
import type { ApiKeyRecord, GrantIssue, NewApiKey, RefreshTokenRecord, Store } from './types.ts';

export type PostgresStoreOptions = {
  connectionString: string;
  poolMax?: number;
  /** How long acquiring a new connection may take before the call fails. */
  connectTimeoutMs?: number;
  /** Errors of idle pooled connections (server restart, network loss); they must not crash the process. */
  onError?: (error: Error) => void;
  now?: () => Date;
};

/** A pool or one checked-out client: what the shared insert helpers write through. */
type Queryable = { query(text: string, params: unknown[]): Promise<{ rowCount: number | null }> };

async function insertKeyRow(db: Queryable, key: NewApiKey, createdAt: Date): Promise<ApiKeyRecord> {
  const record = { ...key, createdAt, revokedAt: null, lastUsedAt: null };
  await db.query(
    `INSERT INTO api_keys (id, account_id, name, hash, prefix, created_at, expires_at, oauth_client_id, resource)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [record.id, record.accountId, record.name, record.hash, record.prefix, record.createdAt,
      record.expiresAt ?? null, record.oauthClientId ?? null, record.resource ?? null],
  );
  return record;
}

async function insertRefreshRow(db: Queryable, token: RefreshTokenRecord): Promise<void> {
  await db.query(
    `INSERT INTO oauth_refresh_tokens (token_hash, client_id, account_id, resource, scope, family_id, expires_at,
       rotated_at, revoked_at, key_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [token.tokenHash, token.clientId, token.accountId, token.resource, token.scope, token.familyId,
      token.expiresAt, token.rotatedAt, token.revokedAt, token.keyId],
  );
}

/**
 * Marks the code used and the refresh token rotated; false when either was already spent. These
 * UPDATEs run first and take the row lock, so a concurrent issuance for the same code or token
 * waits, then matches nothing (READ COMMITTED re-checks the row) and rolls back without writing.
 */
async function claimGrant(db: Queryable, grant: GrantIssue, at: Date): Promise<boolean> {
  if (grant.codeHash !== undefined) {
    const redeemed = await db.query(
      `UPDATE oauth_auth_codes SET used_at = $1, issued_key_id = $2, issued_refresh_hash = $3
       WHERE code_hash = $4 AND used_at IS NULL`,
      [at, grant.key.id, grant.refresh?.tokenHash ?? null, grant.codeHash],
    );
    if (redeemed.rowCount !== 1) return false;
  }
  if (grant.rotatedHash !== undefined) {
    const rotated = await db.query(
      'UPDATE oauth_refresh_tokens SET rotated_at = $1 WHERE token_hash = $2 AND rotated_at IS NULL AND revoked_at IS NULL',
      [at, grant.rotatedHash],
    );
    if (rotated.rowCount !== 1) return false;
  }
  return true;
}

export function createPostgresStore({
  connectionString,
  poolMax = 10,
  connectTimeoutMs = 5000,
  onError = () => {},
  now = () => new Date(),
}: PostgresStoreOptions): Store {
  const pool = new pg.Pool({ connectionString, max: poolMax, connectionTimeoutMillis: connectTimeoutMs });
  pool.on('error', onError);
  let closed = false;

  const all = async (text: string, params: unknown[] = []): Promise<Row[]> => (await pool.query(text, params)).rows;
  const one = async (text: string, params: unknown[] = []): Promise<Row | null> => (await all(text, params))[0] ?? null;
  const run = async (text: string, params: unknown[] = []): Promise<number> => (await pool.query(text, params)).rowCount ?? 0;

  return {
    async migrate() {
      await migratePostgres(pool);
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },

    async createAccount(name) {
      const account = { id: randomUUID(), name, createdAt: now() };
      await run('INSERT INTO accounts (id, name, created_at) VALUES ($1, $2, $3)', [account.id, name, account.createdAt]);
      return account;
    },
    async getAccount(id) {
      const row = await one('SELECT * FROM accounts WHERE id = $1', [id]);
      return row && toAccount(row);
    },
    async findAccountByName(name) {
      const row = await one('SELECT * FROM accounts WHERE name = $1', [name]);
      return row && toAccount(row);
    },

    async insertKey(key) {
      return insertKeyRow(pool, key, key.createdAt ?? now());
    },
    async insertFirstKey(key) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        // Under READ COMMITTED two nodes could both see no key: a transaction lock per schema
        // serialises the check and the insert (released at COMMIT or ROLLBACK).
        await client.query(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':reelay:first-key'))`);
        const { rows } = await client.query('SELECT 1 FROM api_keys LIMIT 1');
        const record = rows.length > 0 ? null : await insertKeyRow(client, key, key.createdAt ?? now());
        await client.query('COMMIT');
        return record;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => { broken = rollbackError; });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async findKeyByHash(hash) {
      const row = await one('SELECT * FROM api_keys WHERE hash = $1', [hash]);
      return row && toApiKey(row);
    },
    async findKeyById(id) {
      const row = await one('SELECT * FROM api_keys WHERE id = $1', [id]);
      return row && toApiKey(row);
    },
    async listKeys(accountId) {
      const rows = accountId === undefined
        ? await all('SELECT * FROM api_keys ORDER BY created_at, id')
        : await all('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at, id', [accountId]);
      return rows.map(toApiKey);
    },
    async revokeKey(idOrPrefix, at = now()) {
      return run('UPDATE api_keys SET revoked_at = $1 WHERE (id = $2 OR prefix = $2) AND revoked_at IS NULL', [at, idOrPrefix]);
    },
    async touchKey(id, at) {
      await run('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [at, id]);
    },

    async listCursorKeys() {
      const rows = await all('SELECT id, secret, created_at FROM cursor_keys ORDER BY id DESC');
      return rows.map((row) => ({ id: Number(row.id), secret: String(row.secret), createdAt: new Date(row.created_at as string) }));
    },
    async insertCursorKey(key) {
      return (await run('INSERT INTO cursor_keys (id, secret, created_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [key.id, key.secret, key.createdAt])) === 1;
    },

    async insertClient(client) {
      await run(
        'INSERT INTO oauth_clients (client_id, secret_hash, metadata, created_at, last_used_at) VALUES ($1, $2, $3, $4, $5)',
        [client.clientId, client.secretHash, JSON.stringify(client.metadata), client.createdAt, client.lastUsedAt],
      );
    },
    async getClient(clientId) {
      const row = await one('SELECT * FROM oauth_clients WHERE client_id = $1', [clientId]);
      return row && toClient(row);
    },
    async touchClient(clientId, at) {
      await run('UPDATE oauth_clients SET last_used_at = $1 WHERE client_id = $2', [at, clientId]);
    },
    async deleteStaleClients(before) {
      return run('DELETE FROM oauth_clients WHERE created_at < $1 AND (last_used_at IS NULL OR last_used_at < $1)', [before]);
    },
    async deleteUnusedClients(before) {
      return run('DELETE FROM oauth_clients WHERE created_at < $1 AND last_used_at IS NULL', [before]);
    },
    async countClientsSince(since) {
      const row = await one('SELECT count(*) AS n FROM oauth_clients WHERE created_at >= $1', [since]);
      return Number(row?.n ?? 0);
    },

    async insertAuthCode(code) {
      await run(
        `INSERT INTO oauth_auth_codes (code_hash, client_id, account_id, redirect_uri, code_challenge, resource, scope,
           expires_at, used_at, issued_key_id, issued_refresh_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [code.codeHash, code.clientId, code.accountId, code.redirectUri, code.codeChallenge, code.resource, code.scope,
          code.expiresAt, code.usedAt, code.issuedKeyId, code.issuedRefreshHash],
      );
    },
    async redeemAuthCode(codeHash, at) {
      // Under READ COMMITTED a concurrent UPDATE waits for the row lock, then re-checks used_at and
      // matches nothing; the loser's follow-up SELECT is a new snapshot, so it sees used_at set.
      const won = await one(
        'UPDATE oauth_auth_codes SET used_at = $1 WHERE code_hash = $2 AND used_at IS NULL RETURNING *',
        [at, codeHash],
      );
      if (won) return { ...toAuthCode(won), usedAt: null };
      const row = await one('SELECT * FROM oauth_auth_codes WHERE code_hash = $1', [codeHash]);
      return row && toAuthCode(row);
    },
    async getAuthCode(codeHash) {
      const row = await one('SELECT * FROM oauth_auth_codes WHERE code_hash = $1', [codeHash]);
      return row && toAuthCode(row);
    },
    async setAuthCodeIssued(codeHash, keyId, refreshHash) {
      await run('UPDATE oauth_auth_codes SET issued_key_id = $1, issued_refresh_hash = $2 WHERE code_hash = $3', [
        keyId, refreshHash, codeHash,
      ]);
    },

    async insertRefreshToken(token) {
      await insertRefreshRow(pool, token);
    },
    async rotateRefreshToken(tokenHash, at) {
      const won = await one(
        'UPDATE oauth_refresh_tokens SET rotated_at = $1 WHERE token_hash = $2 AND rotated_at IS NULL RETURNING *',
        [at, tokenHash],
      );
      if (won) return { ...toRefreshToken(won), rotatedAt: null };
      const row = await one('SELECT * FROM oauth_refresh_tokens WHERE token_hash = $1', [tokenHash]);
      return row && toRefreshToken(row);
    },
    async getRefreshToken(tokenHash) {
      const row = await one('SELECT * FROM oauth_refresh_tokens WHERE token_hash = $1', [tokenHash]);
      return row && toRefreshToken(row);
    },
    async revokeRefreshFamily(familyId, at) {
      // One statement: the CTE revokes the tokens and the keys they minted together or not at all.
      await run(
        `WITH tokens AS (
           UPDATE oauth_refresh_tokens SET revoked_at = COALESCE(revoked_at, $2) WHERE family_id = $1 RETURNING key_id
         )
         UPDATE api_keys SET revoked_at = $2 WHERE revoked_at IS NULL AND id IN (SELECT key_id FROM tokens)`,
        [familyId, at],
      );
    },

    async issueGrant(grant) {
      const { key, refresh, at = now() } = grant;
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        if (!(await claimGrant(client, grant, at))) {
          await client.query('ROLLBACK');
          return null;
        }
        const record = await insertKeyRow(client, key, key.createdAt ?? now());
        if (refresh) await insertRefreshRow(client, refresh);
        await client.query('COMMIT');
        return record;
      } catch (error) {
        // A connection that cannot even roll back is discarded rather than returned to the pool.
        await client.query('ROLLBACK').catch((rollbackError: Error) => { broken = rollbackError; });
        throw error;
      } finally {
        client.release(broken);
      }
    },

    async addUsage(keyId, operation, at, count = 1) {
      await run(
        `INSERT INTO usage_daily (key_id, day, operation, count) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key_id, day, operation) DO UPDATE SET count = usage_daily.count + excluded.count`,
        [keyId, utcDay(at), operation, count],
      );
    },
    async usage(filter) {
      const rows = await all(
        `SELECT u.key_id, u.day, u.operation, u.count FROM usage_daily u
         WHERE ($1::text IS NULL OR u.key_id = $1) AND ($2::text IS NULL OR u.day >= $2)
           AND ($3::text IS NULL OR u.key_id IN (SELECT id FROM api_keys WHERE account_id = $3))
         ORDER BY u.day, u.key_id, u.operation`,
        [filter.keyId ?? null, filter.sinceDay ?? null, filter.accountId ?? null],
      );
      return rows.map(toUsage);
    },
  };
}
