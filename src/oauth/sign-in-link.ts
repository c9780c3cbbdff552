// One-time sign-in links for the consent page, printed by `reelay signin-link`: the holder of the
// server's CLI proves account ownership without pasting an API key. A link (10 min) becomes a short
// sign-in session cookie (15 min) that the next approval consumes. Both are single use and stored
// hashed in the store's auth-code table under reserved client ids that registration never issues.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../storage/types.ts';
import { PAGE_HEADERS, escapeHtml, renderErrorPage, renderSignedInPage, renderSignInPage } from './consent-page.ts';
import { csrfCookie, readCookie, sessionCookie, readSessionCookie } from './cookies.ts';
import { randomToken, safeEqual, sha256Hex } from './crypto.ts';
import { toServerUrls, type ServerUrls } from './urls.ts';

const LINK_CLIENT = 'reelay:signin-link';
const SESSION_CLIENT = 'reelay:signin-session';
const LINK_TTL_SECONDS = 600;
export const SESSION_TTL_SECONDS = 900;

async function insertSecret(store: Store, clientId: string, accountId: string, ttlSeconds: number, now: Date): Promise<string> {
  const secret = randomToken('rlysi_', 32);
  await store.insertAuthCode({
    codeHash: sha256Hex(secret),
    clientId,
    accountId,
    redirectUri: '',
    codeChallenge: '',
    resource: null,
    scope: null,
    expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
    usedAt: null,
    issuedKeyId: null,
    issuedRefreshHash: null,
  });
  return secret;
}

/** Consumes a link or session secret; the account id when it was valid, unused and unexpired. */
async function consumeSecret(store: Store, clientId: string, secret: string, now: Date): Promise<string | null> {
  const record = await store.redeemAuthCode(sha256Hex(secret), now);
  if (!record || record.clientId !== clientId || record.usedAt !== null) return null;
  return record.expiresAt.getTime() > now.getTime() ? record.accountId : null;
}

export async function createSignInLink(input: {
  store: Store;
  /** The tool server's public URL (`{mcp_url}`). */
  publicUrl: string;
  accountId: string;
  ttlSeconds?: number;
  clock?: () => Date;
}): Promise<{ url: string; expiresAt: Date }> {
  const now = (input.clock ?? (() => new Date()))();
  const ttlSeconds = input.ttlSeconds ?? LINK_TTL_SECONDS;
  const secret = await insertSecret(input.store, LINK_CLIENT, input.accountId, ttlSeconds, now);
  const urls = toServerUrls(input.publicUrl);
  return { url: `${urls.issuer}/signin?token=${encodeURIComponent(secret)}`, expiresAt: new Date(now.getTime() + ttlSeconds * 1000) };
}

/** The account of a valid sign-in session cookie, consuming it; null when absent or spent. */
export async function consumeSignInSession(request: FastifyRequest, store: Store, urls: ServerUrls, now: Date): Promise<string | null> {
  const secret = readSessionCookie(request, urls);
  return secret ? consumeSecret(store, SESSION_CLIENT, secret, now) : null;
}

export function registerSignInRoutes(app: FastifyInstance, deps: { store: Store; urls: ServerUrls; serviceName: string; clock: () => Date }) {
  const page = (reply: FastifyReply, status: number, html: string) => reply.code(status).headers(PAGE_HEADERS).send(html);

  // GET only shows a button: link scanners and previews must not spend a single-use link.
  app.get('/signin', async (request, reply) => {
    const token = (request.query as Record<string, unknown>).token;
    if (typeof token !== 'string' || !token) return page(reply, 400, renderErrorPage(deps.serviceName, 'Invalid link', 'This sign-in link is incomplete.'));
    const csrf = randomToken('', 24);
    reply.header('set-cookie', csrfCookie(deps.urls, csrf));
    return page(reply, 200, renderSignInPage(deps.serviceName, escapeHtml(token), csrf));
  });

  app.post('/signin', { bodyLimit: 4096 }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const cookie = readCookie(request, deps.urls);
    if (!cookie || typeof body.csrf_token !== 'string' || !safeEqual(cookie, body.csrf_token)) {
      return page(reply, 403, renderErrorPage(deps.serviceName, 'Form expired', 'The form could not be verified. Open the link again.'));
    }
    const now = deps.clock();
    const accountId = typeof body.token === 'string' ? await consumeSecret(deps.store, LINK_CLIENT, body.token, now) : null;
    if (!accountId) {
      return page(reply, 401, renderErrorPage(deps.serviceName, 'Link expired', 'This sign-in link was already used or has expired. Run `reelay signin-link` again.'));
    }
    const session = await insertSecret(deps.store, SESSION_CLIENT, accountId, SESSION_TTL_SECONDS, now);
    reply.header('set-cookie', sessionCookie(deps.urls, session, SESSION_TTL_SECONDS));
    return page(reply, 200, renderSignedInPage(deps.serviceName));
  });
}
