// Bearer authentication of the MCP endpoint with reelay API keys (RFC 6750). Failures answer 401 with
// an absolute resource_metadata URL so OAuth-capable clients can discover the authorization server.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeyRecord } from '../storage/types.ts';
import type { ServerUrls } from '../oauth/urls.ts';
import { isSameResource } from '../oauth/urls.ts';
import { DEFAULT_SCOPE } from '../oauth/metadata.ts';
import type { KeyService } from './types.ts';
import { isAppError } from '../errors.ts';

export type BearerResult = { ok: true; key: ApiKeyRecord } | { ok: false };

function challenge(urls: ServerUrls, error?: { code: string; description: string }): string {
  const parts = [`resource_metadata="${urls.protectedResourceMetadata}"`, `scope="${DEFAULT_SCOPE}"`];
  if (error) parts.unshift(`error="${error.code}"`, `error_description="${error.description}"`);
  return `Bearer ${parts.join(', ')}`;
}

function refuse(reply: FastifyReply, status: number, header: string, message: string) {
  return reply
    .code(status)
    .header('www-authenticate', header)
    .header('content-type', 'application/json; charset=utf-8')
    .send({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

/** Authenticates the request or sends the 400/401 answer itself and returns `{ ok: false }`. */
export async function authenticateBearer(
  request: FastifyRequest,
  reply: FastifyReply,
  keys: KeyService,
  urls: ServerUrls,
): Promise<BearerResult> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  if ('access_token' in query || 'api_key' in query || 'key' in query) {
    // MCP authorization: tokens MUST NOT be accepted from the query string (they end up in logs).
    const header = challenge(urls, { code: 'invalid_request', description: 'Send the key in the Authorization header' });
    await refuse(reply, 400, header, 'Bad request: tokens in the query string are refused; use the Authorization header');
    return { ok: false };
  }
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match) {
    await refuse(reply, 401, challenge(urls), 'Unauthorized: send Authorization: Bearer <API key>');
    return { ok: false };
  }
  let key;
  try {
    key = await keys.authenticate(match[1]);
  } catch (error) {
    if (!isAppError(error) || error.code !== 'store_unavailable') throw error;
    // The key could not be checked: refused for now, never accepted unchecked (and not a 401,
    // which would send an OAuth client off to sign in again).
    await reply
      .code(503)
      .header('retry-after', String(error.retryAfterSeconds ?? 5))
      .header('content-type', 'application/json; charset=utf-8')
      .send({ jsonrpc: '2.0', error: { code: -32000, message: `Service unavailable: ${error.message}`, data: { code: error.code } }, id: null });
    return { ok: false };
  }
  // A key minted by OAuth for another resource is not ours to accept (RFC 8707 audience).
  if (!key || (key.resource !== null && !isSameResource(key.resource, urls.resource))) {
    const header = challenge(urls, { code: 'invalid_token', description: 'The API key is invalid, expired or revoked' });
    await refuse(reply, 401, header, 'Unauthorized: the API key is invalid, expired or revoked');
    return { ok: false };
  }
  return { ok: true, key };
}
