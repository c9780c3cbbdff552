// The embedded Store on node:sqlite: one file in WAL mode, dates as integer ms, each statement
// prepared once per connection. Calls are synchronous underneath, so each method is atomic in-process.

import { randomUUID } from 'node:crypto';
import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import { migrateSqlite } from './migrations.ts';
import { toAccount, toApiKey, toAuthCode, toClient, toRefreshToken, toUsage, utcDay, type Row } from './rows.ts';
import type { ApiKeyRecord, NewApiKey, RefreshTokenRecord, Store } from './types.ts';

export type SqliteStoreOptions = {
  /** A file path or ':memory:'. */
  path: string;
  /** How long a writer waits for another connection's lock before failing. */
  busyTimeoutMs?: number;
  now?: () => Date;
};

const ms = (value: Date | null | undefined): number | null => (value ? value.getTime() : null);

/** Thrown inside issueGrant's transaction to roll it back when the code or token was already spent. */
class GrantConflict extends Error {}

export function createSqliteStore({ path, busyTimeoutMs = 5000, now = () => new Date() }: SqliteStoreOptions): Store {
  const db = new DatabaseSync(path, { enableForeignKeyConstraints: true, timeout: busyTimeoutMs });
  db.exec(`PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  db.exec('PRAGMA foreign_keys = ON');
  if (path !== ':memory:') {
    db.exec('PRAGMA journal_mode = WAL');
    // WAL makes NORMAL durable against application crashes; only power loss can drop the last commits.
    db.exec('PRAGMA synchronous = NORMAL');
  }

  // Prepared on first use (tables exist only after migrate()) and reused for the life of the connection.
  const statements = new Map<string, StatementSync>();
  const sql = (text: string): StatementSync => {
    let statement = statements.get(text);
    if (!statement) {
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
  const one = (text: string, ...params: SQLInputValue[]): Row | null => (sql(text).get(...params) as Row | undefined) ?? null;
  const all = (text: string, ...params: SQLInputValue[]): Row[] => sql(text).all(...params) as Row[];
  const run = (text: string, ...params: SQLInputValue[]): number => Number(sql(text).run(...params).changes);

  function transaction<T>(body: () => T): T {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = body();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }

  function insertKeyRow(key: NewApiKey): ApiKeyRecord {
    const record = { ...key, createdAt: key.createdAt ?? now(), revokedAt: null, lastUsedAt: null };
    run(
      `INSERT INTO api_keys (id, account_id, name, hash, prefix, created_at, expires_at, oauth_client_id, resource)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      record.id, record.accountId, record.name, record.hash, record.prefix,
      ms(record.createdAt), ms(record.expiresAt), record.oauthClientId ?? null, record.resource ?? null,
    );
    return record;
  }

  function insertRefreshRow(token: RefreshTokenRecord): void {
    run(
      `INSERT INTO oauth_refresh_tokens (token_hash, client_id, account_id, resource, scope, family_id, expires_at,
         rotated_at, revoked_at, key_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      token.tokenHash, token.clientId, token.accountId, token.resource, token.scope, token.familyId,
      ms(token.expiresAt), ms(token.rotatedAt), ms(token.revokedAt), token.keyId,
    );
  }

  return {
    async migrate() {
      migrateSqlite(db, undefined, () => now().getTime());
    },
    async close() {
      if (!db.isOpen) return;
      statements.clear();
      db.close();
    },

    async createAccount(name) {
      const account = { id: randomUUID(), name, createdAt: now() };
      run('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)', account.id, name, ms(account.createdAt));
      return account;
    },
    async getAccount(id) {
      const row = one('SELECT * FROM accounts WHERE id = ?', id);
      return row && toAccount(row);
    },
    async findAccountByName(name) {
      const row = one('SELECT * FROM accounts WHERE name = ?', name);
      return row && toAccount(row);
    },

    async insertKey(key) {
      return insertKeyRow(key);
    },
    async insertFirstKey(key) {
      // BEGIN IMMEDIATE takes the write lock first, so another process cannot insert between the check and the insert.
      return transaction(() => (one('SELECT 1 FROM api_keys LIMIT 1') ? null : insertKeyRow(key)));
    },
    async findKeyByHash(hash) {
      const row = one('SELECT * FROM api_keys WHERE hash = ?', hash);
      return row && toApiKey(row);
    },
    async findKeyById(id) {
      const row = one('SELECT * FROM api_keys WHERE id = ?', id);
      return row && toApiKey(row);
    },
    async listKeys(accountId) {
      const rows = accountId === undefined
        ? all('SELECT * FROM api_keys ORDER BY created_at, id')
        : all('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id', accountId);
      return rows.map(toApiKey);
    },
    async revokeKey(idOrPrefix, at = now()) {
      return run(
        'UPDATE api_keys SET revoked_at = ? WHERE (id = ? OR prefix = ?) AND revoked_at IS NULL',
        ms(at), idOrPrefix, idOrPrefix,
      );
    },
    async touchKey(id, at) {
      run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', ms(at), id);
    },

    async listCursorKeys() {
      return all('SELECT id, secret, created_at FROM cursor_keys ORDER BY id DESC').map((row) => ({
        id: Number(row.id),
        secret: String(row.secret),
        createdAt: new Date(Number(row.created_at)),
      }));
    },
    async insertCursorKey(key) {
      return run('INSERT INTO cursor_keys (id, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING', key.id, key.secret, ms(key.createdAt)) === 1;
    },

    async insertClient(client) {
      run(
        'INSERT INTO oauth_clients (client_id, secret_hash, metadata, created_at, last_used_at) VALUES (?, ?, ?, ?, ?)',
        client.clientId, client.secretHash, JSON.stringify(client.metadata), ms(client.createdAt), ms(client.lastUsedAt),
      );
    },
    async getClient(clientId) {
      const row = one('SELECT * FROM oauth_clients WHERE client_id = ?', clientId);
      return row && toClient(row);
    },
    async touchClient(clientId, at) {
      run('UPDATE oauth_clients SET last_used_at = ? WHERE client_id = ?', ms(at), clientId);
    },
    async deleteStaleClients(before) {
      return run(
        'DELETE FROM oauth_clients WHERE created_at < ? AND (last_used_at IS NULL OR last_used_at < ?)',
        ms(before), ms(before),
      );
    },
    async deleteUnusedClients(before) {
      return run('DELETE FROM oauth_clients WHERE created_at < ? AND last_used_at IS NULL', ms(before));
    },
    async countClientsSince(since) {
      return Number(one('SELECT count(*) AS n FROM oauth_clients WHERE created_at >= ?', ms(since))?.n ?? 0);
    },

    async insertAuthCode(code) {
      run(
        `INSERT INTO oauth_auth_codes (code_hash, client_id, account_id, redirect_uri, code_challenge, resource, scope,
           expires_at, used_at, issued_key_id, issued_refresh_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        code.codeHash, code.clientId, code.accountId, code.redirectUri, code.codeChallenge, code.resource, code.scope,
        ms(code.expiresAt), ms(code.usedAt), code.issuedKeyId, code.issuedRefreshHash,
      );
    },
    async redeemAuthCode(codeHash, at) {
      // The conditional UPDATE is the arbiter across connections: only the caller whose UPDATE
      // changed the row saw it unused; everyone else reads it back with used_at already set.
      const won = one(
        'UPDATE oauth_auth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL RETURNING *',
        ms(at), codeHash,
      );
      if (won) return { ...toAuthCode(won), usedAt: null };
      const row = one('SELECT * FROM oauth_auth_codes WHERE code_hash = ?', codeHash);
      return row && toAuthCode(row);
    },
    async getAuthCode(codeHash) {
      const row = one('SELECT * FROM oauth_auth_codes WHERE code_hash = ?', codeHash);
      return row && toAuthCode(row);
    },
    async setAuthCodeIssued(codeHash, keyId, refreshHash) {
      run(
        'UPDATE oauth_auth_codes SET issued_key_id = ?, issued_refresh_hash = ? WHERE code_hash = ?',
        keyId, refreshHash, codeHash,
      );
    },

    async insertRefreshToken(token) {
      insertRefreshRow(token);
    },
    async rotateRefreshToken(tokenHash, at) {
      const won = one(
        'UPDATE oauth_refresh_tokens SET rotated_at = ? WHERE token_hash = ? AND rotated_at IS NULL RETURNING *',
        ms(at), tokenHash,
      );
      if (won) return { ...toRefreshToken(won), rotatedAt: null };
      const row = one('SELECT * FROM oauth_refresh_tokens WHERE token_hash = ?', tokenHash);
      return row && toRefreshToken(row);
    },
    async getRefreshToken(tokenHash) {
      const row = one('SELECT * FROM oauth_refresh_tokens WHERE token_hash = ?', tokenHash);
      return row && toRefreshToken(row);
    },
    async revokeRefreshFamily(familyId, at) {
      transaction(() => {
        run(
          `UPDATE api_keys SET revoked_at = ? WHERE revoked_at IS NULL AND id IN
             (SELECT key_id FROM oauth_refresh_tokens WHERE family_id = ? AND key_id IS NOT NULL)`,
          ms(at), familyId,
        );
        run('UPDATE oauth_refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL', ms(at), familyId);
      });
    },

    async issueGrant({ key, refresh, codeHash, rotatedHash, at = now() }) {
      try {
        return transaction(() => {
          // The conditional UPDATEs come first: a spent code or token writes nothing at all.
          if (codeHash !== undefined) {
            const redeemed = run(
              `UPDATE oauth_auth_codes SET used_at = ?, issued_key_id = ?, issued_refresh_hash = ?
               WHERE code_hash = ? AND used_at IS NULL`,
              ms(at), key.id, refresh?.tokenHash ?? null, codeHash,
            );
            if (redeemed === 0) throw new GrantConflict();
          }
          if (rotatedHash !== undefined) {
            const rotated = run(
              'UPDATE oauth_refresh_tokens SET rotated_at = ? WHERE token_hash = ? AND rotated_at IS NULL AND revoked_at IS NULL',
              ms(at), rotatedHash,
            );
            if (rotated === 0) throw new GrantConflict();
          }
          const record = insertKeyRow(key);
          if (refresh) insertRefreshRow(refresh);
          return record;
        });
      } catch (error) {
        if (error instanceof GrantConflict) return null;
        throw error;
      }
    },

    async addUsage(keyId, operation, at, count = 1) {
      run(
        `INSERT INTO usage_daily (key_id, day, operation, count) VALUES (?, ?, ?, ?)
         ON CONFLICT (key_id, day, operation) DO UPDATE SET count = usage_daily.count + excluded.count`,
        keyId, utcDay(at), operation, count,
      );
    },
    async usage(filter) {
      const rows = all(
        `SELECT u.key_id, u.day, u.operation, u.count FROM usage_daily u
         WHERE (?1 IS NULL OR u.key_id = ?1) AND (?2 IS NULL OR u.day >= ?2)
           AND (?3 IS NULL OR u.key_id IN (SELECT id FROM api_keys WHERE account_id = ?3))
         ORDER BY u.day, u.key_id, u.operation`,
        filter.keyId ?? null, filter.sinceDay ?? null, filter.accountId ?? null,
      );
      return rows.map(toUsage);
    },
  };
}
