// The storage contract: accounts, API keys, OAuth clients/codes/refresh tokens and usage.
// Implemented by the embedded node:sqlite store and the PostgreSQL store; one contract suite tests both.
// Secrets (keys, codes, refresh tokens) are stored only as SHA-256 hashes; callers pass the hash.

export type Account = { id: string; name: string; createdAt: Date };

export type ApiKeyRecord = {
  id: string;
  accountId: string;
  name: string;
  /** Hex SHA-256 of the whole key. */
  hash: string;
  /** First characters of the key, safe to show (`rly_ab12…`). */
  prefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** Set on keys minted by OAuth: the client, the resource they were issued for. */
  oauthClientId: string | null;
  resource: string | null;
};

export type NewApiKey = Omit<ApiKeyRecord, 'createdAt' | 'revokedAt' | 'lastUsedAt'> & { createdAt?: Date };

export type OAuthClientRecord = {
  clientId: string;
  /** Hash of the client secret; null for public clients (token_endpoint_auth_method none). */
  secretHash: string | null;
  /** The full RFC 7591 metadata as registered (redirect_uris, client_name, ...). */
  metadata: Record<string, unknown>;
  createdAt: Date;
  lastUsedAt: Date | null;
};

export type AuthCodeRecord = {
  codeHash: string;
  clientId: string;
  accountId: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string | null;
  scope: string | null;
  expiresAt: Date;
  /** Set when redeemed; a second redemption finds it set (RFC 6749 §4.1.2 reuse handling). */
  usedAt: Date | null;
  /** Key ids minted from this code, revoked on reuse. */
  issuedKeyId: string | null;
  issuedRefreshHash: string | null;
};

export type RefreshTokenRecord = {
  tokenHash: string;
  clientId: string;
  accountId: string;
  resource: string | null;
  scope: string | null;
  /** All refresh tokens of one grant share a family; reuse of a rotated one revokes the family. */
  familyId: string;
  expiresAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
  /** The access key minted with this refresh token. */
  keyId: string | null;
};

/** One token issuance, written by Store.issueGrant in a single transaction. */
export type GrantIssue = {
  key: NewApiKey;
  refresh: RefreshTokenRecord | null;
  /** The authorization code this grant redeems: marked used, with the key and refresh token it issued. */
  codeHash?: string;
  /** The refresh token this grant replaces: marked rotated. */
  rotatedHash?: string;
  /** When the code is used or the token rotated; defaults to the store's clock. */
  at?: Date;
};

export type UsageRow = { keyId: string; day: string; operation: string; count: number };

/** A key that authenticates collection cursors (base64url secret). */
export type CursorKeyRecord = { id: number; secret: string; createdAt: Date };

export interface Store {
  /** Creates tables or upgrades them; safe to run from two nodes at once. */
  migrate(): Promise<void>;
  close(): Promise<void>;

  createAccount(name: string): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  findAccountByName(name: string): Promise<Account | null>;

  insertKey(key: NewApiKey): Promise<ApiKeyRecord>;
  /**
   * Inserts `key` only if the store holds no key at all (revoked ones count); null otherwise.
   * Atomic across nodes: of two concurrent calls on an empty store exactly one inserts.
   */
  insertFirstKey(key: NewApiKey): Promise<ApiKeyRecord | null>;
  findKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  findKeyById(id: string): Promise<ApiKeyRecord | null>;
  listKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  /** Revokes by id or by prefix; returns how many keys were revoked. */
  revokeKey(idOrPrefix: string, at?: Date): Promise<number>;
  touchKey(id: string, at: Date): Promise<void>;

  /** Every cursor key, newest (highest id) first. */
  listCursorKeys(): Promise<CursorKeyRecord[]>;
  /** Inserts the key unless one with its id exists (another node won the race); true if inserted. */
  insertCursorKey(key: CursorKeyRecord): Promise<boolean>;

  insertClient(client: OAuthClientRecord): Promise<void>;
  getClient(clientId: string): Promise<OAuthClientRecord | null>;
  touchClient(clientId: string, at: Date): Promise<void>;
  /** Deletes clients created before `before` that were never used since then; returns the count. */
  deleteStaleClients(before: Date): Promise<number>;
  /** Deletes clients created before `before` that never completed an authorization; returns the count. */
  deleteUnusedClients(before: Date): Promise<number>;
  countClientsSince(since: Date): Promise<number>;

  insertAuthCode(code: AuthCodeRecord): Promise<void>;
  /**
   * Atomically marks the code used and returns it as it was before (usedAt null on first use).
   * Returns null when unknown. Two concurrent redemptions: exactly one sees usedAt null.
   */
  redeemAuthCode(codeHash: string, at: Date): Promise<AuthCodeRecord | null>;
  getAuthCode(codeHash: string): Promise<AuthCodeRecord | null>;
  setAuthCodeIssued(codeHash: string, keyId: string, refreshHash: string | null): Promise<void>;

  insertRefreshToken(token: RefreshTokenRecord): Promise<void>;
  /** Atomically marks the token rotated and returns it as it was before. */
  rotateRefreshToken(tokenHash: string, at: Date): Promise<RefreshTokenRecord | null>;
  getRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | null>;
  /** Revokes every refresh token of the family and the keys they minted. */
  revokeRefreshFamily(familyId: string, at: Date): Promise<void>;
  /**
   * In one transaction: redeems `codeHash` or rotates `rotatedHash`, and inserts the key and the
   * refresh token. Null, with nothing written, when the code is unknown or already used, or the
   * refresh token unknown, rotated or revoked: of two concurrent issuances exactly one succeeds.
   */
  issueGrant(grant: GrantIssue): Promise<ApiKeyRecord | null>;

  addUsage(keyId: string, operation: string, at: Date, count?: number): Promise<void>;
  usage(filter: { keyId?: string; accountId?: string; sinceDay?: string }): Promise<UsageRow[]>;
}
