// The token endpoint: authorization_code and refresh_token grants. The access token is a new API key
// of the account (so it works on REST unchanged); refresh tokens rotate, and any reuse of a code or
// of a rotated refresh token revokes what it issued (RFC 6749 §4.1.2, OAuth 2.1 §4.3.1).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { KeyService } from '../mcp/types.ts';
import type { OAuthClientRecord, Store } from '../storage/types.ts';
import { authenticateClient, clientName } from './client-auth.ts';
import { randomToken, safeEqual, sha256Hex, verifyPkceS256 } from './crypto.ts';
import { OAuthError, field, sendOAuthError } from './errors.ts';
import { isSameResource, type ServerUrls } from './urls.ts';

export type TokenDeps = {
  store: Store;
  keys: KeyService;
  urls: ServerUrls;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  clock: () => Date;
};

type Grant = { accountId: string; resource: string | null; scope: string | null; familyId: string };
/** What the issuance spends in the same transaction: the code it redeems or the token it rotates. */
type Spends = { codeHash: string } | { rotatedHash: string };

/** The token answer, or null when the code or refresh token was spent by a concurrent request. */
async function issueTokens(deps: TokenDeps, client: OAuthClientRecord, grant: Grant, spends: Spends, now: Date) {
  const { key, record } = await deps.keys.prepare({
    accountId: grant.accountId,
    name: `oauth:${clientName(client)}`,
    expiresAt: new Date(now.getTime() + deps.accessTokenTtlSeconds * 1000),
    oauthClientId: client.clientId,
    resource: grant.resource ?? undefined,
  });
  const refreshToken = randomToken('rlyr_', 32);
  const refresh = {
    tokenHash: sha256Hex(refreshToken),
    clientId: client.clientId,
    accountId: grant.accountId,
    resource: grant.resource,
    scope: grant.scope,
    familyId: grant.familyId,
    expiresAt: new Date(now.getTime() + deps.refreshTokenTtlSeconds * 1000),
    rotatedAt: null,
    revokedAt: null,
    keyId: record.id,
  };
  // One transaction spends the code or token and stores both tokens, so a crash leaves all or none.
  if (!(await deps.store.issueGrant({ key: record, refresh, ...spends, at: now }))) return null;
  await deps.store.touchClient(client.clientId, now);
  return {
    access_token: key,
    token_type: 'Bearer',
    expires_in: deps.accessTokenTtlSeconds,
    refresh_token: refreshToken,
    ...(grant.scope ? { scope: grant.scope } : {}),
  };
}

function checkResource(body: Record<string, unknown>, bound: string | null, urls: ServerUrls): void {
  const resource = field(body, 'resource');
  if (resource === undefined) return;
  if (!isSameResource(resource, urls.resource) || (bound !== null && !isSameResource(resource, bound))) {
    throw new OAuthError('invalid_target', `resource must be ${urls.resource}.`);
  }
}

/** The code when it may be exchanged; otherwise throws, after revoking on reuse or spending it on a failed check. */
async function checkCode(deps: TokenDeps, client: OAuthClientRecord, body: Record<string, unknown>, codeHash: string, now: Date) {
  const record = await deps.store.getAuthCode(codeHash);
  if (!record) throw new OAuthError('invalid_grant', 'Unknown authorization code.');
  if (record.usedAt !== null) {
    await revokeIssuedFromCode(deps, record.issuedKeyId, record.issuedRefreshHash, now);
    throw new OAuthError('invalid_grant', 'Authorization code already used; what it issued is revoked.');
  }
  try {
    if (record.clientId !== client.clientId) throw new OAuthError('invalid_grant', 'Code was issued to another client.');
    if (record.expiresAt.getTime() <= now.getTime()) throw new OAuthError('invalid_grant', 'Authorization code expired.');
    const redirectUri = field(body, 'redirect_uri');
    if (redirectUri === undefined || !safeEqual(redirectUri, record.redirectUri)) {
      throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request.');
    }
    if (!verifyPkceS256(field(body, 'code_verifier') ?? '', record.codeChallenge)) {
      throw new OAuthError('invalid_grant', 'PKCE verification failed.');
    }
    checkResource(body, record.resource, deps.urls);
  } catch (error) {
    // A code is spent by any presentation, also a refused one (RFC 6749 §4.1.2: single use).
    await deps.store.redeemAuthCode(codeHash, now);
    throw error;
  }
  return record;
}

async function authorizationCodeGrant(deps: TokenDeps, client: OAuthClientRecord, body: Record<string, unknown>) {
  const code = field(body, 'code');
  if (!code) throw new OAuthError('invalid_request', 'code is required.');
  if (!field(body, 'code_verifier')) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE).');
  const now = deps.clock();
  const codeHash = sha256Hex(code);
  const record = await checkCode(deps, client, body, codeHash, now);
  const grant = { accountId: record.accountId, resource: record.resource, scope: record.scope, familyId: randomUUID() };
  const issued = await issueTokens(deps, client, grant, { codeHash }, now);
  if (issued) return issued;
  // A concurrent request redeemed the code after our read: this one is the reuse.
  await checkCode(deps, client, body, codeHash, now);
  throw new OAuthError('invalid_grant', 'Authorization code already used.');
}

async function revokeIssuedFromCode(deps: TokenDeps, keyId: string | null, refreshHash: string | null, now: Date) {
  if (keyId) await deps.store.revokeKey(keyId, now);
  if (!refreshHash) return;
  const refresh = await deps.store.getRefreshToken(refreshHash);
  if (refresh) await deps.store.revokeRefreshFamily(refresh.familyId, now);
}

/** The refresh token when it may be rotated; otherwise throws, after revoking the family on reuse. */
async function checkRefresh(deps: TokenDeps, client: OAuthClientRecord, body: Record<string, unknown>, tokenHash: string, now: Date) {
  const record = await deps.store.getRefreshToken(tokenHash);
  if (!record) throw new OAuthError('invalid_grant', 'Unknown refresh token.');
  try {
    if (record.clientId !== client.clientId) throw new OAuthError('invalid_grant', 'Refresh token was issued to another client.');
    if (record.revokedAt !== null) throw new OAuthError('invalid_grant', 'Refresh token revoked.');
    if (record.rotatedAt !== null) {
      // A rotated token presented again means two parties hold it: end the whole grant.
      await deps.store.revokeRefreshFamily(record.familyId, now);
      throw new OAuthError('invalid_grant', 'Refresh token already used; the grant is revoked.');
    }
    if (record.expiresAt.getTime() <= now.getTime()) throw new OAuthError('invalid_grant', 'Refresh token expired.');
    checkResource(body, record.resource, deps.urls);
  } catch (error) {
    // Like a code, a refresh token is spent by any presentation, also a refused one.
    await deps.store.rotateRefreshToken(tokenHash, now);
    throw error;
  }
  return record;
}

async function refreshTokenGrant(deps: TokenDeps, client: OAuthClientRecord, body: Record<string, unknown>) {
  const token = field(body, 'refresh_token');
  if (!token) throw new OAuthError('invalid_request', 'refresh_token is required.');
  const now = deps.clock();
  const tokenHash = sha256Hex(token);
  const record = await checkRefresh(deps, client, body, tokenHash, now);
  const grant = { accountId: record.accountId, resource: record.resource, scope: record.scope, familyId: record.familyId };
  const issued = await issueTokens(deps, client, grant, { rotatedHash: tokenHash }, now);
  if (issued) return issued;
  // Rotated or revoked by a concurrent request after our read: refuse it as that request left it.
  await checkRefresh(deps, client, body, tokenHash, now);
  throw new OAuthError('invalid_grant', 'Refresh token already used.');
}

async function handleToken(request: FastifyRequest, reply: FastifyReply, deps: TokenDeps) {
  const body = (request.body ?? {}) as Record<string, unknown>;
  try {
    const client = await authenticateClient(request, body, deps.store);
    const grantType = field(body, 'grant_type');
    let result: Record<string, unknown>;
    if (grantType === 'authorization_code') result = await authorizationCodeGrant(deps, client, body);
    else if (grantType === 'refresh_token') result = await refreshTokenGrant(deps, client, body);
    else throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(result);
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err;
    if (err.error === 'invalid_client' && /^basic /i.test(request.headers.authorization ?? '')) {
      reply.header('www-authenticate', 'Basic realm="reelay"');
    }
    return sendOAuthError(reply, err);
  }
}

export function registerTokenRoute(app: FastifyInstance, deps: TokenDeps): void {
  app.post('/token', { bodyLimit: 16 * 1024 }, async (request, reply) => handleToken(request, reply, deps));
}
