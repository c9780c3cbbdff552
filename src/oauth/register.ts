// RFC 7591 dynamic client registration, accepting the shapes real MCP clients send (Claude, ChatGPT,
// Cursor, VS Code, Inspector). Bounded by body and field limits, hourly limits per client address and
// per redirect host, and a global hourly cap shared by all nodes as a last resort no one address can
// reach. Registrations never used for an authorization expire after a day.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Store } from '../storage/types.ts';
import { randomToken, sha256Hex } from './crypto.ts';
import { OAuthError, sendOAuthError } from './errors.ts';
import { checkRedirectUri } from './redirect-uri.ts';
import type { RegistrationLimits } from './registration-limits.ts';

export type RegisterDeps = {
  store: Store;
  clock: () => Date;
  limits: RegistrationLimits;
  registrationsPerHourMax: number;
  staleClientTtlSeconds: number;
  /** A registration that never completed an authorization is purged after this long. */
  unusedClientTtlSeconds: number;
};

/** A client never used for an authorization, registered longer ago than the unused lifetime. */
export function isExpiredUnused(client: { createdAt: Date; lastUsedAt: Date | null }, now: Date, unusedClientTtlSeconds: number): boolean {
  return client.lastUsedAt === null && now.getTime() - client.createdAt.getTime() >= unusedClientTtlSeconds * 1000;
}

function tooMany(reply: { header(name: string, value: string): unknown }, retryAfterSeconds: number, description: string): OAuthError {
  reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfterSeconds))));
  return new OAuthError('temporarily_unavailable', description, 429);
}

export const AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;
export const REGISTER_BODY_BYTES_MAX = 16 * 1024;
const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

const text = (max: number) => z.string().max(max).nullish();
const metadataSchema = z.object({
  redirect_uris: z.array(z.string().max(2000)).min(1, 'redirect_uris is required').max(10, 'at most 10 redirect_uris'),
  token_endpoint_auth_method: z.string().max(64).nullish(),
  grant_types: z.array(z.string().max(100)).max(10).nullish(),
  response_types: z.array(z.string().max(100)).max(10).nullish(),
  client_name: text(500),
  client_uri: text(2000),
  logo_uri: text(2000),
  tos_uri: text(2000),
  policy_uri: text(2000),
  scope: text(1000),
  contacts: z.array(z.string().max(320)).max(10).nullish(),
  software_id: text(200),
  software_version: text(200),
  application_type: text(20),
});

/** A display name without control characters, bounded for the consent page and key names. */
export function cleanClientName(name: string | null | undefined): string {
  const cleaned = (name ?? '').replace(/[\p{Cc}\p{Cf}]/gu, '').replace(/\s+/g, ' ').trim().slice(0, 100);
  return cleaned || 'Unnamed client';
}

/** Validates a registration request and returns the metadata to store (absent fields omitted, never null). */
export function parseClientMetadata(body: unknown): Record<string, unknown> {
  const parsed = metadataSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new OAuthError('invalid_client_metadata', `${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  const m = parsed.data;
  for (const uri of m.redirect_uris) {
    const check = checkRedirectUri(uri);
    if (!check.ok) throw new OAuthError('invalid_redirect_uri', `Redirect URI ${JSON.stringify(uri)} is not allowed: ${check.reason}.`);
  }
  // RFC 7591 §2: an absent method means client_secret_basic.
  const method = m.token_endpoint_auth_method ?? 'client_secret_basic';
  if (!(AUTH_METHODS as readonly string[]).includes(method)) {
    throw new OAuthError('invalid_client_metadata', `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}.`);
  }
  const grants = m.grant_types ?? ['authorization_code'];
  if (!grants.includes('authorization_code')) {
    throw new OAuthError('invalid_client_metadata', 'grant_types must include authorization_code.');
  }
  if (m.response_types && !m.response_types.includes('code')) {
    throw new OAuthError('invalid_client_metadata', 'response_types must include code.');
  }
  const out: Record<string, unknown> = {
    redirect_uris: m.redirect_uris,
    token_endpoint_auth_method: method,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    client_name: cleanClientName(m.client_name),
  };
  for (const key of ['client_uri', 'logo_uri', 'tos_uri', 'policy_uri', 'scope', 'software_id', 'software_version', 'application_type'] as const) {
    const value = m[key];
    if (typeof value === 'string' && value !== '') out[key] = value;
  }
  if (m.contacts && m.contacts.length > 0) out.contacts = m.contacts;
  return out;
}

export function registerRegisterRoute(app: FastifyInstance, deps: RegisterDeps): void {
  let lastCleanupMs = Number.NEGATIVE_INFINITY;

  app.post('/register', { bodyLimit: REGISTER_BODY_BYTES_MAX }, async (request, reply) => {
    try {
      const now = deps.clock();
      if (now.getTime() - lastCleanupMs >= CLEANUP_INTERVAL_MS) {
        lastCleanupMs = now.getTime();
        await deps.store.deleteStaleClients(new Date(now.getTime() - deps.staleClientTtlSeconds * 1000));
        await deps.store.deleteUnusedClients(new Date(now.getTime() - deps.unusedClientTtlSeconds * 1000));
      }
      const metadata = parseClientMetadata(request.body);
      // request.ip is the socket's address, or the forwarded one from a proxy REELAY_TRUST_PROXY names.
      const verdict = await deps.limits.consume(request.ip, metadata.redirect_uris as string[]);
      if (!verdict.allowed) {
        const from = verdict.limit === 'address' ? 'from this address' : 'for this redirect host';
        throw tooMany(reply, verdict.retryAfterSeconds, `Too many client registrations ${from}; try again later.`);
      }
      const recent = await deps.store.countClientsSince(new Date(now.getTime() - 3600 * 1000));
      if (recent >= deps.registrationsPerHourMax) throw tooMany(reply, 600, 'Too many client registrations; try again later.');
      const clientId = randomToken('rlyc_', 18);
      const secret = metadata.token_endpoint_auth_method === 'none' ? null : randomToken('rlys_', 32);
      await deps.store.insertClient({
        clientId,
        secretHash: secret === null ? null : sha256Hex(secret),
        metadata,
        createdAt: now,
        lastUsedAt: null,
      });
      const issuedAt = Math.floor(now.getTime() / 1000);
      const secretFields = secret === null ? {} : { client_secret: secret, client_secret_expires_at: 0 };
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({ client_id: clientId, client_id_issued_at: issuedAt, ...secretFields, ...metadata });
    } catch (err) {
      if (err instanceof OAuthError) return sendOAuthError(reply, err);
      throw err;
    }
  });
}
