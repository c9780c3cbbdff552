// Client authentication at /token and /revoke: client_secret_basic (RFC 6749 §2.3.1), client_secret_post
// or none, as the client registered. Unknown or deleted clients get 401 invalid_client, which is
// the signal Claude re-registers on.
import type { FastifyRequest } from 'fastify';
import type { OAuthClientRecord, Store } from '../storage/types.ts';
import { safeEqual, sha256Hex } from './crypto.ts';
import { OAuthError, field } from './errors.ts';

type Credentials = { clientId: string; secret: string | undefined; method: 'basic' | 'post' | 'none' };

function decodeBasic(header: string): { clientId: string; secret: string } {
  const encoded = header.slice(6).trim();
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError('invalid_client', 'Malformed Basic credentials.', 401);
  try {
    // RFC 6749 §2.3.1: both parts are form-urlencoded before being joined.
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    throw new OAuthError('invalid_client', 'Malformed Basic credentials.', 401);
  }
}

function readCredentials(request: FastifyRequest, body: Record<string, unknown>): Credentials {
  const header = request.headers.authorization;
  const bodyId = field(body, 'client_id');
  const bodySecret = field(body, 'client_secret');
  if (header && /^basic /i.test(header)) {
    const basic = decodeBasic(header);
    if (bodySecret !== undefined) throw new OAuthError('invalid_request', 'Use one client authentication method, not two.');
    if (bodyId !== undefined && bodyId !== basic.clientId) throw new OAuthError('invalid_client', 'client_id does not match the credentials.', 401);
    return { clientId: basic.clientId, secret: basic.secret, method: 'basic' };
  }
  if (bodyId === undefined) throw new OAuthError('invalid_client', 'Client authentication is required (client_id).', 401);
  return { clientId: bodyId, secret: bodySecret, method: bodySecret === undefined ? 'none' : 'post' };
}

/** The authenticated client, or an invalid_client OAuthError (401). */
export async function authenticateClient(
  request: FastifyRequest,
  body: Record<string, unknown>,
  store: Store,
): Promise<OAuthClientRecord> {
  const credentials = readCredentials(request, body);
  const client = await store.getClient(credentials.clientId);
  if (!client) throw new OAuthError('invalid_client', 'Unknown client; register again.', 401);
  // A public client has nothing to prove; a stray secret from a confused client adds nothing and is ignored.
  if (client.secretHash === null) return client;
  if (credentials.secret === undefined || !safeEqual(sha256Hex(credentials.secret), client.secretHash)) {
    throw new OAuthError('invalid_client', 'Client authentication failed.', 401);
  }
  return client;
}

export function clientName(client: OAuthClientRecord): string {
  const name = client.metadata.client_name;
  return typeof name === 'string' && name ? name : 'Unnamed client';
}

export function clientRedirectUris(client: OAuthClientRecord): string[] {
  const uris = client.metadata.redirect_uris;
  return Array.isArray(uris) ? uris.filter((u): u is string => typeof u === 'string') : [];
}
