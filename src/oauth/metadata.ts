// Discovery documents: RFC 9728 protected resource metadata and RFC 8414 authorization server
// metadata. Public, cacheable for a short while, and built once from the public URL.
import type { FastifyInstance } from 'fastify';
import type { McpConfig } from '../mcp/types.ts';
import type { ServerUrls } from './urls.ts';

/** The one scope: the service is read-only. `offline_access` is deliberately absent (MCP 2026-07-28). */
export const SCOPES = ['read'] as const;
export const DEFAULT_SCOPE = 'read';

export function protectedResourceMetadata(urls: ServerUrls, config: McpConfig) {
  return {
    resource: urls.resource,
    authorization_servers: [urls.issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: config.serviceName,
    resource_documentation: `${config.restBaseUrl.replace(/\/+$/, '')}/docs`,
  };
}

export function authorizationServerMetadata(urls: ServerUrls, config: McpConfig) {
  return {
    issuer: urls.issuer,
    authorization_endpoint: urls.authorize,
    token_endpoint: urls.token,
    registration_endpoint: urls.register,
    revocation_endpoint: urls.revoke,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${config.restBaseUrl.replace(/\/+$/, '')}/docs`,
  };
}

export function registerMetadataRoutes(app: FastifyInstance, urls: ServerUrls, config: McpConfig): void {
  const prm = protectedResourceMetadata(urls, config);
  const asm = authorizationServerMetadata(urls, config);
  const paths = (base: string) => (urls.pathSuffix ? [base, `${base}${urls.pathSuffix}`] : [base]);
  for (const path of paths('/.well-known/oauth-protected-resource')) {
    app.get(path, async (_request, reply) => reply.header('cache-control', 'public, max-age=300').send(prm));
  }
  for (const path of paths('/.well-known/oauth-authorization-server')) {
    app.get(path, async (_request, reply) => reply.header('cache-control', 'public, max-age=300').send(asm));
  }
}
