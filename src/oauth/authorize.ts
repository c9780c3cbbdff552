// The authorization endpoint (OAuth 2.1 §4.1): validates the request in two phases (errors before
// the redirect URI is trusted are shown, never redirected), renders consent, and on approval
// issues a single-use, hashed, short-lived code bound to client, redirect, challenge and resource.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { KeyService } from '../mcp/types.ts';
import type { Store } from '../storage/types.ts';
import { isValidCodeChallenge, randomToken, safeEqual, sha256Hex } from './crypto.ts';
import { clientName, clientRedirectUris } from './client-auth.ts';
import { PAGE_HEADERS, renderConsentPage, renderErrorPage } from './consent-page.ts';
import { csrfCookie, readCookie, readSessionCookie } from './cookies.ts';
import { DEFAULT_SCOPE, SCOPES } from './metadata.ts';
import { isLoopbackRedirect, matchRegisteredRedirect, redirectDisplayHost } from './redirect-uri.ts';
import { consumeSignInSession } from './sign-in-link.ts';
import { isExpiredUnused } from './register.ts';
import { isSameResource, type ServerUrls } from './urls.ts';

export type AuthorizeDeps = {
  store: Store;
  keys: KeyService;
  urls: ServerUrls;
  serviceName: string;
  codeTtlSeconds: number;
  clock: () => Date;
  /** Registrations never used for an authorization expire after this long (purged at registration). */
  unusedClientTtlSeconds: number;
};

type Params = Record<string, string | undefined>;
export type ValidRequest = {
  clientId: string;
  clientName: string;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  resource: string;
  scope: string;
};
type Validation =
  | { kind: 'page'; status: number; title: string; message: string }
  | { kind: 'redirect'; redirectUri: string; state: string | undefined; error: string; description: string }
  | { kind: 'ok'; request: ValidRequest };

const FORWARDED = ['response_type', 'client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'resource', 'scope'] as const;

function toParams(source: unknown): Params {
  const out: Params = {};
  const record = (source ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(record)) {
    // A repeated parameter is ambiguous (RFC 6749 §3.1); treat it as absent-and-invalid below.
    out[name] = typeof value === 'string' ? value : value === undefined ? undefined : '\u0000repeated';
  }
  return out;
}

/** Granted scope: the supported subset of what was asked; none asked (ChatGPT reconnects so) = default. */
export function grantScope(requested: string | undefined): string {
  const asked = (requested ?? '').split(' ').filter(Boolean);
  const granted = asked.filter((s) => (SCOPES as readonly string[]).includes(s));
  return granted.length > 0 ? [...new Set(granted)].join(' ') : DEFAULT_SCOPE;
}

export async function validateAuthorization(
  params: Params,
  deps: Pick<AuthorizeDeps, 'store' | 'urls' | 'clock' | 'unusedClientTtlSeconds'>,
): Promise<Validation> {
  const page = (title: string, message: string, status = 400): Validation => ({ kind: 'page', status, title, message });
  if (!params.client_id) return page('Missing client', 'The request has no client_id.');
  const client = await deps.store.getClient(params.client_id);
  if (!client || isExpiredUnused(client, deps.clock(), deps.unusedClientTtlSeconds)) return page('Unknown client', 'This application is not registered (or its registration expired).');
  const registered = clientRedirectUris(client);
  const redirectUri = params.redirect_uri ?? (registered.length === 1 ? registered[0] : undefined);
  if (!redirectUri) return page('Missing redirect URI', 'The request has no redirect_uri.');
  if (!matchRegisteredRedirect(redirectUri, registered)) {
    return page('Invalid redirect URI', 'The redirect URI is not registered for this application.');
  }
  const state = params.state;
  const fail = (error: string, description: string): Validation => ({ kind: 'redirect', redirectUri, state, error, description });
  if (params.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code.');
  if (!params.code_challenge || !isValidCodeChallenge(params.code_challenge)) {
    return fail('invalid_request', 'PKCE is required: code_challenge (S256, base64url of 32 bytes).');
  }
  if (params.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256.');
  if (params.resource !== undefined && !isSameResource(params.resource, deps.urls.resource)) {
    return fail('invalid_target', `resource must be ${deps.urls.resource}.`);
  }
  return {
    kind: 'ok',
    request: {
      clientId: client.clientId,
      clientName: clientName(client),
      redirectUri,
      state,
      codeChallenge: params.code_challenge,
      resource: deps.urls.resource,
      scope: grantScope(params.scope),
    },
  };
}

/** RFC 9207: every authorization response, success or error, names the issuer. */
export function redirectWith(redirectUri: string, issuer: string, values: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(values)) if (value !== undefined) url.searchParams.set(name, value);
  url.searchParams.set('iss', issuer);
  return url.href;
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).send(html);
}

function showConsent(request: FastifyRequest, reply: FastifyReply, deps: AuthorizeDeps, params: Params, req: ValidRequest, error?: string) {
  const csrfToken = randomToken('', 24);
  const hidden: Record<string, string> = {};
  for (const name of FORWARDED) if (params[name] !== undefined) hidden[name] = params[name] as string;
  reply.header('set-cookie', csrfCookie(deps.urls, csrfToken));
  const html = renderConsentPage({
    serviceName: deps.serviceName,
    clientName: req.clientName,
    redirectHost: redirectDisplayHost(req.redirectUri),
    loopbackRedirect: isLoopbackRedirect(req.redirectUri),
    scope: req.scope,
    hidden,
    csrfToken,
    signedIn: readSessionCookie(request, deps.urls) !== undefined,
    error,
  });
  return sendPage(reply, error ? 401 : 200, html);
}

/** Who approves: the pasted API key's account, else a one-time-link sign-in session (consumed). */
async function signedInAccount(request: FastifyRequest, deps: AuthorizeDeps, apiKey: string | undefined): Promise<string | null> {
  if (apiKey && apiKey.trim()) return (await deps.keys.authenticate(apiKey.trim()))?.accountId ?? null;
  return consumeSignInSession(request, deps.store, deps.urls, deps.clock());
}

async function handle(request: FastifyRequest, reply: FastifyReply, deps: AuthorizeDeps, params: Params, isPost: boolean) {
  const validation = await validateAuthorization(params, deps);
  if (validation.kind === 'page') {
    return sendPage(reply, validation.status, renderErrorPage(deps.serviceName, validation.title, validation.message));
  }
  if (validation.kind === 'redirect') {
    const { redirectUri, state, error, description } = validation;
    return reply.redirect(redirectWith(redirectUri, deps.urls.issuer, { error, error_description: description, state }), 303);
  }
  const req = validation.request;
  if (!isPost) return showConsent(request, reply, deps, params, req);

  const cookie = readCookie(request, deps.urls);
  if (!cookie || !params.csrf_token || !safeEqual(cookie, params.csrf_token)) {
    return sendPage(reply, 403, renderErrorPage(deps.serviceName, 'Form expired', 'The form could not be verified (CSRF check failed). Start again from the application.'));
  }
  if (params.decision !== 'approve') {
    const denied = { error: 'access_denied', error_description: 'The user denied the request.', state: req.state };
    return reply.redirect(redirectWith(req.redirectUri, deps.urls.issuer, denied), 303);
  }
  const accountId = await signedInAccount(request, deps, params.api_key);
  if (!accountId) return showConsent(request, reply, deps, params, req, 'That API key is not valid. Paste an active key of your account.');

  const code = randomToken('rlyac_', 32);
  const now = deps.clock();
  await deps.store.insertAuthCode({
    codeHash: sha256Hex(code),
    clientId: req.clientId,
    accountId,
    redirectUri: req.redirectUri,
    codeChallenge: req.codeChallenge,
    resource: req.resource,
    scope: req.scope,
    expiresAt: new Date(now.getTime() + deps.codeTtlSeconds * 1000),
    usedAt: null,
    issuedKeyId: null,
    issuedRefreshHash: null,
  });
  await deps.store.touchClient(req.clientId, now);
  return reply.redirect(redirectWith(req.redirectUri, deps.urls.issuer, { code, state: req.state }), 303);
}

export function registerAuthorizeRoutes(app: FastifyInstance, deps: AuthorizeDeps): void {
  app.get('/authorize', async (request, reply) => handle(request, reply, deps, toParams(request.query), false));
  app.post('/authorize', { bodyLimit: 16 * 1024 }, async (request, reply) =>
    handle(request, reply, deps, toParams(request.body), true),
  );
}
