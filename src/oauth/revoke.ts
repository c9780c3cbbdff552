// RFC 7009 token revocation: an access token (one of our API keys minted for this client) or a
// refresh token (its whole family). Unknown tokens answer 200 too, so revocation leaks nothing.
import type { FastifyInstance } from 'fastify';
import type { KeyService } from '../mcp/types.ts';
import type { Store } from '../storage/types.ts';
import { authenticateClient } from './client-auth.ts';
import { sha256Hex } from './crypto.ts';
import { OAuthError, field, sendOAuthError } from './errors.ts';

export type RevokeDeps = { store: Store; keys: KeyService; clock: () => Date };

export function registerRevokeRoute(app: FastifyInstance, deps: RevokeDeps): void {
  app.post('/revoke', { bodyLimit: 16 * 1024 }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    try {
      const client = await authenticateClient(request, body, deps.store);
      const token = field(body, 'token');
      if (!token) throw new OAuthError('invalid_request', 'token is required.');
      const now = deps.clock();
      const refresh = await deps.store.getRefreshToken(sha256Hex(token));
      if (refresh) {
        if (refresh.clientId === client.clientId) await deps.store.revokeRefreshFamily(refresh.familyId, now);
      } else {
        const key = await deps.keys.authenticate(token);
        // Only keys this client obtained may be revoked through it; others are left alone silently.
        if (key && key.oauthClientId === client.clientId) await deps.store.revokeKey(key.id, now);
      }
      return reply.header('cache-control', 'no-store').code(200).send({});
    } catch (err) {
      if (err instanceof OAuthError) return sendOAuthError(reply, err);
      throw err;
    }
  });
}
