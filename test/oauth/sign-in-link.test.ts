// One-time sign-in links: a link signs a browser in once, the session approves one authorization,
// and neither works twice.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createSignInLink } from '../../src/oauth/sign-in-link.ts';
import { startHarness, type Harness } from '../mcp/harness.ts';
import { loadConsent, submitConsent } from './consent-client.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => h.close());

async function signIn(url: string): Promise<{ status: number; session?: string }> {
  const page = await loadConsent(url);
  const res = await fetch(`${h.url}/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie ?? '' },
    body: new URLSearchParams(page.fields),
  });
  await res.text();
  return { status: res.status, session: res.headers.get('set-cookie')?.split(';')[0] };
}

test('a sign-in link signs in once; the session approves one authorization without an API key', async () => {
  const link = await createSignInLink({ store: h.store, publicUrl: h.url, accountId: h.accountId });
  assert.match(link.url, new RegExp(`^${h.url}/signin\\?token=rlysi_`));
  const first = await signIn(link.url);
  assert.equal(first.status, 200);
  assert.match(first.session!, /^__Host-reelay_signin=rlysi_/);
  assert.equal((await signIn(link.url)).status, 401, 'a link is single use');

  const reg = await fetch(`${h.url}/register`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: ['http://localhost:6274/oauth/callback'], token_endpoint_auth_method: 'none' }),
  });
  const { client_id } = (await reg.json()) as { client_id: string };
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const url = `${h.url}/authorize?${new URLSearchParams({ response_type: 'code', client_id, redirect_uri: 'http://localhost:6274/oauth/callback', code_challenge: challenge, code_challenge_method: 'S256', state: 's' })}`;
  const consent = await loadConsent(url);
  const cookies = `${consent.cookie}; ${first.session}`;
  const approved = await submitConsent(h.url, consent, { decision: 'approve' }, cookies);
  assert.equal(approved.status, 303);
  assert.ok(new URL(approved.location!).searchParams.get('code'));
  const again = await submitConsent(h.url, consent, { decision: 'approve' }, cookies);
  assert.equal(again.status, 401, 'a session approves once');
});

test('an expired sign-in link is refused', async () => {
  const past = () => new Date(Date.now() - 3600_000);
  const link = await createSignInLink({ store: h.store, publicUrl: h.url, accountId: h.accountId, clock: past });
  assert.equal((await signIn(link.url)).status, 401);
});
