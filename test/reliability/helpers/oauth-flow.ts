// One full OAuth 2.1 authorization-code grant against the tool server, the way a client and a
// person at the consent page drive it: register, consent (CSRF cookie + form), code, token.
import { createHash, randomBytes } from 'node:crypto';

export type Grant = { accessToken: string; refreshToken: string };
const REDIRECT = 'http://127.0.0.1:9/callback';

export async function registerClient(mcpUrl: string): Promise<string> {
  const response = await fetch(`${mcpUrl}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'crash test', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
  });
  const body = (await response.json()) as { client_id?: string };
  if (response.status !== 201 || !body.client_id) throw new Error(`registration failed: ${response.status} ${JSON.stringify(body)}`);
  return body.client_id;
}

/** Runs one grant; throws on any unexpected answer (including the service dying mid-way). */
export async function runGrant(mcpUrl: string, clientId: string, apiKey: string): Promise<Grant> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const params = { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 's', resource: mcpUrl };
  const page = await fetch(`${mcpUrl}/authorize?${new URLSearchParams(params)}`);
  const html = await page.text();
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  const cookie = page.headers.get('set-cookie')?.split(';')[0];
  if (page.status !== 200 || !csrf || !cookie) throw new Error(`consent page: ${page.status}`);
  const approve = await fetch(`${mcpUrl}/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ ...params, csrf_token: csrf, decision: 'approve', api_key: apiKey }).toString(),
  });
  const code = new URL(approve.headers.get('location') ?? 'http://x/').searchParams.get('code');
  if (approve.status !== 303 || !code) throw new Error(`consent: ${approve.status}`);
  const token = await fetch(`${mcpUrl}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT, resource: mcpUrl }).toString(),
  });
  const body = (await token.json()) as { access_token?: string; refresh_token?: string };
  if (token.status !== 200 || !body.access_token || !body.refresh_token) throw new Error(`token: ${token.status} ${JSON.stringify(body)}`);
  return { accessToken: body.access_token, refreshToken: body.refresh_token };
}
