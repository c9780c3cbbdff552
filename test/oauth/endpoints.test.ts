// The authorization server's endpoints one by one: discovery documents, registration limits,
// authorize validation and consent page safety, token grants (code reuse, PKCE, binding), revocation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { OAuthMetadataSchema, OAuthProtectedResourceMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { startHarness, type Harness } from '../mcp/harness.ts';
import { loadConsent, submitConsent } from './consent-client.ts';

let now = new Date('2026-09-01T10:00:00Z');
let h: Harness;
before(async () => {
  h = await startHarness({ clock: () => now, config: { registrationsPerHourMax: 1000, registrationsPerAddressPerHour: 1000 } });
});
after(async () => h.close());

const REDIRECT = 'http://localhost:6274/oauth/callback';
const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};
const post = (path: string, body: object, headers: Record<string, string> = {}) =>
  fetch(`${h.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const form = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${h.url}${path}`, { method: 'POST', headers, body: new URLSearchParams(body) });

async function register(metadata: object = {}): Promise<{ client_id: string; client_secret?: string }> {
  const res = await post('/register', { client_name: 'Test', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...metadata });
  assert.equal(res.status, 201);
  return res.json() as any;
}

function authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({
    response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge,
    code_challenge_method: 'S256', state: 'xyz', resource: h.url, scope: 'read', ...extra,
  });
  return `${h.url}/authorize?${params}`;
}

async function getCode(clientId: string, challenge: string): Promise<string> {
  const page = await loadConsent(authorizeUrl(clientId, challenge));
  const res = await submitConsent(h.url, page, { api_key: h.key, decision: 'approve' });
  return new URL(res.location!).searchParams.get('code')!;
}

describe('discovery', () => {
  test('protected resource metadata names the MCP URL and the issuer, validated by the SDK schema', async () => {
    const res = await fetch(`${h.url}/.well-known/oauth-protected-resource`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /application\/json/);
    const prm = OAuthProtectedResourceMetadataSchema.parse(await res.json() as any);
    assert.equal(prm.resource, h.url);
    assert.deepEqual(prm.authorization_servers, [h.url]);
    assert.deepEqual(prm.bearer_methods_supported, ['header']);
    assert.ok(!prm.scopes_supported!.includes('offline_access'));
  });

  test('authorization server metadata has the checklist fields and the identical issuer', async () => {
    const res = await fetch(`${h.url}/.well-known/oauth-authorization-server`, { headers: { origin: 'https://any.example' } });
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const meta = OAuthMetadataSchema.parse(await res.json() as any);
    assert.equal(meta.issuer, h.url);
    assert.equal(meta.authorization_endpoint, `${h.url}/authorize`);
    assert.equal(meta.token_endpoint, `${h.url}/token`);
    assert.equal(meta.registration_endpoint, `${h.url}/register`);
    assert.equal(meta.revocation_endpoint, `${h.url}/revoke`);
    assert.deepEqual(meta.response_types_supported, ['code']);
    assert.deepEqual(meta.grant_types_supported, ['authorization_code', 'refresh_token']);
    assert.deepEqual(meta.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(meta.token_endpoint_auth_methods_supported, ['client_secret_basic', 'client_secret_post', 'none']);
    assert.equal((meta as Record<string, unknown>).authorization_response_iss_parameter_supported, true);
  });
});

describe('registration', () => {
  test('answers 201 with integer timestamps, no null fields, and a secret only for confidential clients', async () => {
    const res = await post('/register', { client_name: 'Claude', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'], token_endpoint_auth_method: 'client_secret_post', logo_uri: null, client_uri: null });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const body = await res.json() as any;
    assert.ok(Number.isInteger(body.client_id_issued_at));
    assert.equal(body.client_secret_expires_at, 0);
    assert.match(body.client_secret, /^rlys_/);
    assert.ok(!Object.values(body).includes(null));
    assert.ok(!('client_secret' in (await register())));
  });

  test('an absent auth method means client_secret_basic (RFC 7591 §2)', async () => {
    const res = await post('/register', { redirect_uris: [REDIRECT] });
    const body = await res.json() as any;
    assert.equal(body.token_endpoint_auth_method, 'client_secret_basic');
    assert.ok(body.client_secret);
    assert.equal(body.client_name, 'Unnamed client');
  });

  test('a disallowed redirect URI is invalid_redirect_uri naming it', async () => {
    const res = await post('/register', { redirect_uris: ['https://ok.example/cb', 'http://evil.example/cb'] });
    assert.equal(res.status, 400);
    const body = await res.json() as any;
    assert.equal(body.error, 'invalid_redirect_uri');
    assert.match(body.error_description, /evil\.example/);
  });

  test('field, count and body limits are enforced', async () => {
    const many = Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`);
    assert.equal((await post('/register', { redirect_uris: many })).status, 400);
    assert.equal((await post('/register', { redirect_uris: [REDIRECT], client_name: 'x'.repeat(600) })).status, 400);
    assert.equal((await post('/register', { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'private_key_jwt' })).status, 400);
    assert.equal((await post('/register', { redirect_uris: [REDIRECT], padding: 'x'.repeat(20_000) })).status, 413);
    assert.equal((await post('/register', {})).status, 400);
  });

  test('client names lose control characters and are bounded', async () => {
    const res = await post('/register', { redirect_uris: [REDIRECT], client_name: 'Evil\u202e\u0007 App', token_endpoint_auth_method: 'none' });
    assert.equal((await res.json() as any).client_name, 'Evil App');
  });

  test('the global hourly cap answers 429 once reached, shared through the store', async () => {
    const capped = await startHarness({ config: { registrationsPerHourMax: 2 } });
    try {
      const reg = () => fetch(`${capped.url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT] }) });
      assert.equal((await reg()).status, 201);
      assert.equal((await reg()).status, 201);
      const third = await reg();
      assert.equal(third.status, 429);
      assert.equal((await third.json() as any).error, 'temporarily_unavailable');
    } finally {
      await capped.close();
    }
  });
});

describe('authorize', () => {
  test('an unknown client is shown an error page, never redirected', async () => {
    const res = await fetch(authorizeUrl('rlyc_nope', pkce().challenge), { redirect: 'manual' });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('location'), null);
  });

  test('an unregistered redirect URI is shown an error page, never redirected', async () => {
    const { client_id } = await register();
    const res = await fetch(authorizeUrl(client_id, pkce().challenge, { redirect_uri: 'https://evil.example/cb' }), { redirect: 'manual' });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('location'), null);
  });

  const redirected = [
    ['missing PKCE', { code_challenge: '' }, 'invalid_request'],
    ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['a foreign resource', { resource: 'https://other.example' }, 'invalid_target'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
  ] as const;
  for (const [label, extra, error] of redirected) {
    test(`${label} redirects with error ${error}, state and iss`, async () => {
      const { client_id } = await register();
      const res = await fetch(authorizeUrl(client_id, pkce().challenge, extra), { redirect: 'manual' });
      assert.equal(res.status, 303);
      const location = new URL(res.headers.get('location')!);
      assert.equal(location.searchParams.get('error'), error);
      assert.equal(location.searchParams.get('state'), 'xyz');
      assert.equal(location.searchParams.get('iss'), h.url);
    });
  }

  test('the consent page names the client and redirect host, forbids framing and sets a __Host- cookie', async () => {
    const { client_id } = await register({ client_name: '<b>Evil</b>' });
    const page = await loadConsent(authorizeUrl(client_id, pkce().challenge));
    assert.equal(page.status, 200);
    assert.ok(page.html.includes('&lt;b&gt;Evil&lt;/b&gt;'));
    assert.ok(!page.html.includes('<b>Evil</b>'));
    assert.ok(page.html.includes('localhost:6274'));
    assert.match(page.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.match(page.headers.get('set-cookie')!, /^__Host-reelay_csrf=[^;]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/);
  });

  test('a POST without the CSRF cookie or with a wrong token is refused', async () => {
    const { client_id } = await register();
    const page = await loadConsent(authorizeUrl(client_id, pkce().challenge));
    assert.equal((await submitConsent(h.url, page, { api_key: h.key, decision: 'approve' }, null)).status, 403);
    assert.equal((await submitConsent(h.url, page, { api_key: h.key, decision: 'approve', csrf_token: 'forged' })).status, 403);
  });

  test('a wrong API key re-shows the page with an error and issues no code', async () => {
    const { client_id } = await register();
    const page = await loadConsent(authorizeUrl(client_id, pkce().challenge));
    const res = await submitConsent(h.url, page, { api_key: `rly_${'B'.repeat(43)}`, decision: 'approve' });
    assert.equal(res.status, 401);
    assert.equal(res.location, null);
    assert.match(res.html, /not valid/);
  });

  test('deny redirects with access_denied, state and iss', async () => {
    const { client_id } = await register();
    const page = await loadConsent(authorizeUrl(client_id, pkce().challenge));
    const res = await submitConsent(h.url, page, { decision: 'deny' });
    const location = new URL(res.location!);
    assert.equal(location.searchParams.get('error'), 'access_denied');
    assert.equal(location.searchParams.get('state'), 'xyz');
    assert.equal(location.searchParams.get('iss'), h.url);
  });
});

describe('token', () => {
  const exchange = (clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) =>
    form('/token', { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId, ...extra });

  test('a code is single use: reuse fails and revokes the key and refresh token it issued', async () => {
    const { client_id } = await register();
    const { verifier, challenge } = pkce();
    const code = await getCode(client_id, challenge);
    const first = await exchange(client_id, code, verifier);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'no-store');
    const tokens = await first.json() as any;
    assert.ok(await h.keys.authenticate(tokens.access_token));
    const second = await exchange(client_id, code, verifier);
    assert.equal(second.status, 400);
    assert.equal((await second.json() as any).error, 'invalid_grant');
    assert.equal(await h.keys.authenticate(tokens.access_token), null);
    const refresh = await form('/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id });
    assert.equal(refresh.status, 400);
  });

  const bad = [
    ['a wrong PKCE verifier', (v: string) => ({ code_verifier: `${v.slice(0, -2)}AA` })],
    ['another redirect_uri', () => ({ redirect_uri: 'http://localhost:6274/other' })],
    ['a foreign resource', () => ({ resource: 'https://other.example' })],
  ] as const;
  for (const [label, change] of bad) {
    test(`${label} is refused`, async () => {
      const { client_id } = await register();
      const { verifier, challenge } = pkce();
      const code = await getCode(client_id, challenge);
      const res = await exchange(client_id, code, verifier, change(verifier));
      assert.equal(res.status, 400);
      assert.match((await res.json() as any).error, /invalid_grant|invalid_target/);
    });
  }

  test('a code redeemed by another client is refused', async () => {
    const a = await register();
    const b = await register();
    const { verifier, challenge } = pkce();
    const code = await getCode(a.client_id, challenge);
    assert.equal((await exchange(b.client_id, code, verifier)).status, 400);
  });

  test('an expired code is refused', async () => {
    const { client_id } = await register();
    const { verifier, challenge } = pkce();
    const code = await getCode(client_id, challenge);
    const saved = now;
    now = new Date(now.getTime() + 61_000);
    try {
      const res = await exchange(client_id, code, verifier);
      assert.equal(res.status, 400);
      assert.match((await res.json() as any).error_description, /expired/);
    } finally {
      now = saved;
    }
  });

  test('an unknown client is 401 invalid_client (the signal to register again)', async () => {
    const res = await form('/token', { grant_type: 'authorization_code', code: 'x', code_verifier: 'y', client_id: 'rlyc_gone' });
    assert.equal(res.status, 401);
    assert.equal((await res.json() as any).error, 'invalid_client');
  });

  test('a confidential client with a wrong secret is 401 invalid_client, also over Basic', async () => {
    const { client_id } = await register({ token_endpoint_auth_method: 'client_secret_basic' });
    const basic = `Basic ${Buffer.from(`${client_id}:wrong`).toString('base64')}`;
    const res = await form('/token', { grant_type: 'refresh_token', refresh_token: 'x' }, { authorization: basic });
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate')!, /^Basic/);
    const post = await form('/token', { grant_type: 'refresh_token', refresh_token: 'x', client_id });
    assert.equal(post.status, 401);
  });

  test('an unsupported grant type is unsupported_grant_type', async () => {
    const { client_id } = await register();
    const res = await form('/token', { grant_type: 'client_credentials', client_id });
    assert.equal((await res.json() as any).error, 'unsupported_grant_type');
  });
});

describe('revoke', () => {
  test('revoking a refresh token ends the family and the key; unknown tokens still answer 200', async () => {
    const { client_id } = await register();
    const { verifier, challenge } = pkce();
    const code = await getCode(client_id, challenge);
    const tokens = await (await form('/token', { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id })).json() as any;
    assert.equal((await form('/revoke', { token: tokens.refresh_token, client_id })).status, 200);
    assert.equal(await h.keys.authenticate(tokens.access_token), null);
    assert.equal((await form('/revoke', { token: 'nonsense', client_id })).status, 200);
  });

  test('a client cannot revoke a key it did not obtain', async () => {
    const { client_id } = await register();
    assert.equal((await form('/revoke', { token: h.key, client_id })).status, 200);
    assert.ok(await h.keys.authenticate(h.key));
  });
});
