// Mounts the authorization server on the tool server's Fastify instance: discovery, registration,
// authorization (consent), token and revocation, all on the same origin as the MCP endpoint.
import type { FastifyInstance } from 'fastify';
import type { McpDeps } from '../mcp/types.ts';
import { registerAuthorizeRoutes } from './authorize.ts';
import { registerMetadataRoutes } from './metadata.ts';
import { registerRegisterRoute } from './register.ts';
import { createRegistrationLimits } from './registration-limits.ts';
import { registerRevokeRoute } from './revoke.ts';
import { registerSignInRoutes } from './sign-in-link.ts';
import { registerTokenRoute } from './token.ts';
import type { ServerUrls } from './urls.ts';

const DEFAULT_REGISTRATIONS_PER_HOUR = 500;
const DEFAULT_STALE_CLIENT_TTL_SECONDS = 30 * 24 * 3600;
const DEFAULT_UNUSED_CLIENT_TTL_SECONDS = 24 * 3600;

/** application/x-www-form-urlencoded as a record; a repeated name becomes an array (rejected later). */
function parseForm(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const previous = out[name];
    out[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return out;
}

export function registerOAuthRoutes(app: FastifyInstance, deps: McpDeps, urls: ServerUrls): void {
  const clock = deps.clock ?? (() => new Date());
  const { store, keys, config } = deps;
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, parseForm(body as string));
  });
  registerMetadataRoutes(app, urls, config);
  const unusedClientTtlSeconds = config.unusedClientTtlSeconds ?? DEFAULT_UNUSED_CLIENT_TTL_SECONDS;
  registerRegisterRoute(app, {
    store,
    clock,
    limits:
      deps.registrationLimits ??
      createRegistrationLimits({
        ...(config.registrationsPerAddressPerHour === undefined ? {} : { perAddressPerHour: config.registrationsPerAddressPerHour }),
        ...(config.registrationsPerRedirectHostPerHour === undefined ? {} : { perRedirectHostPerHour: config.registrationsPerRedirectHostPerHour }),
      }),
    registrationsPerHourMax: config.registrationsPerHourMax ?? DEFAULT_REGISTRATIONS_PER_HOUR,
    staleClientTtlSeconds: config.staleClientTtlSeconds ?? DEFAULT_STALE_CLIENT_TTL_SECONDS,
    unusedClientTtlSeconds,
  });
  registerAuthorizeRoutes(app, {
    store,
    keys,
    urls,
    serviceName: config.serviceName,
    codeTtlSeconds: config.codeTtlSeconds,
    clock,
    unusedClientTtlSeconds,
  });
  registerTokenRoute(app, {
    store,
    keys,
    urls,
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
    clock,
  });
  registerRevokeRoute(app, { store, keys, clock });
  registerSignInRoutes(app, { store, urls, serviceName: config.serviceName, clock });
}
