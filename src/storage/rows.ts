// Row <-> record mapping shared by the SQLite and PostgreSQL stores. Columns are snake_case; the
// stores differ only in how a date column arrives (integer ms from SQLite, Date from pg).

import type { Account, ApiKeyRecord, AuthCodeRecord, OAuthClientRecord, RefreshTokenRecord, UsageRow } from './types.ts';

export type Row = Record<string, unknown>;

export function dateOrNull(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  return new Date(Number(value));
}

function date(value: unknown): Date {
  const result = dateOrNull(value);
  if (result === null) throw new Error('Unexpected NULL in a NOT NULL date column');
  return result;
}

const str = (value: unknown): string => String(value);
const strOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** UTC calendar day (`YYYY-MM-DD`) that usage at `at` is counted under. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export function toAccount(row: Row): Account {
  return { id: str(row.id), name: str(row.name), createdAt: date(row.created_at) };
}

export function toApiKey(row: Row): ApiKeyRecord {
  return {
    id: str(row.id),
    accountId: str(row.account_id),
    name: str(row.name),
    hash: str(row.hash),
    prefix: str(row.prefix),
    createdAt: date(row.created_at),
    expiresAt: dateOrNull(row.expires_at),
    revokedAt: dateOrNull(row.revoked_at),
    lastUsedAt: dateOrNull(row.last_used_at),
    oauthClientId: strOrNull(row.oauth_client_id),
    resource: strOrNull(row.resource),
  };
}

export function toClient(row: Row): OAuthClientRecord {
  const metadata = typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata;
  return {
    clientId: str(row.client_id),
    secretHash: strOrNull(row.secret_hash),
    metadata: metadata as Record<string, unknown>,
    createdAt: date(row.created_at),
    lastUsedAt: dateOrNull(row.last_used_at),
  };
}

export function toAuthCode(row: Row): AuthCodeRecord {
  return {
    codeHash: str(row.code_hash),
    clientId: str(row.client_id),
    accountId: str(row.account_id),
    redirectUri: str(row.redirect_uri),
    codeChallenge: str(row.code_challenge),
    resource: strOrNull(row.resource),
    scope: strOrNull(row.scope),
    expiresAt: date(row.expires_at),
    usedAt: dateOrNull(row.used_at),
    issuedKeyId: strOrNull(row.issued_key_id),
    issuedRefreshHash: strOrNull(row.issued_refresh_hash),
  };
}

export function toRefreshToken(row: Row): RefreshTokenRecord {
  return {
    tokenHash: str(row.token_hash),
    clientId: str(row.client_id),
    accountId: str(row.account_id),
    resource: strOrNull(row.resource),
    scope: strOrNull(row.scope),
    familyId: str(row.family_id),
    expiresAt: date(row.expires_at),
    rotatedAt: dateOrNull(row.rotated_at),
    revokedAt: dateOrNull(row.revoked_at),
    keyId: strOrNull(row.key_id),
  };
}

export function toUsage(row: Row): UsageRow {
  return { keyId: str(row.key_id), day: str(row.day), operation: str(row.operation), count: Number(row.count) };
}
