// Dynamic client registration cannot be locked by one address: hourly limits per client address
// (IPv6 per /64) and per redirect host, answered 429 with Retry-After in the OAuth error form;
// registrations that never complete an authorization expire; forwarded addresses count only
// through a trusted proxy.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../mcp/harness.ts';
import { addressKey, redirectHostsOf } from '../../src/oauth/registration-limits.ts';
import type { McpConfig } from '../../src/mcp/types.ts';

const LOCAL_REDIRECT = 'http://localhost:6274/oauth/callback';

function register(h: Harness, address: string, redirect = LOCAL_REDIRECT, headers: Record<string, string> = {}) {
  return h.app.inject({
    method: 'POST',
    url: '/register',
    remoteAddress: address,
    headers: { 'content-type': 'application/json', ...headers },
    payload: { client_name: 'Agent', redirect_uris: [redirect], token_endpoint_auth_method: 'none' },
  });
}

async function withHarness(config: Partial<McpConfig>, fn: (h: Harness) => Promise<void>, clock?: () => Date): Promise<void> {
  const h = await startHarness({ config, listen: false, ...(clock ? { clock } : {}) });
  try {
    await fn(h);
  } finally {
    await h.close();
  }
}

describe('registration limits', () => {
  test('one address gets 20 registrations an hour, then 429 with Retry-After in OAuth form, and cannot reach the global cap', async () => {
    // The global cap (30) is above one address's budget (20): another address still registers.
    await withHarness({ registrationsPerHourMax: 30 }, async (h) => {
      for (let i = 0; i < 20; i += 1) assert.equal((await register(h, '198.51.100.7')).statusCode, 201);
      const refused = await register(h, '198.51.100.7');
      assert.equal(refused.statusCode, 429);
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      assert.equal(refused.headers['cache-control'], 'no-store');
      assert.deepEqual(Object.keys(refused.json()).sort(), ['error', 'error_description']);
      assert.equal(refused.json().error, 'temporarily_unavailable');
      assert.match(refused.json().error_description, /from this address/);
      assert.equal((await register(h, '203.0.113.9')).statusCode, 201);
    });
  });

  test('addresses of one IPv6 /64 share a budget; IPv4-mapped addresses count as IPv4', async () => {
    assert.equal(addressKey('2001:db8:1:2::1'), addressKey('2001:db8:1:2:ffff::9'));
    assert.notEqual(addressKey('2001:db8:1:2::1'), addressKey('2001:db8:1:3::1'));
    assert.equal(addressKey('::ffff:192.0.2.1'), '192.0.2.1');
    await withHarness({ registrationsPerAddressPerHour: 2 }, async (h) => {
      assert.equal((await register(h, '2001:db8:1:2::1')).statusCode, 201);
      assert.equal((await register(h, '2001:db8:1:2::2')).statusCode, 201);
      assert.equal((await register(h, '2001:db8:1:2:abcd::3')).statusCode, 429);
    });
  });

  test('one redirect host gets a bounded number of registrations an hour from all addresses; loopback redirects are not counted per host', async () => {
    await withHarness({ registrationsPerAddressPerHour: 3, registrationsPerRedirectHostPerHour: 4 }, async (h) => {
      const host = 'https://agent.example/oauth/callback';
      const statuses = [];
      for (const address of ['192.0.2.1', '192.0.2.1', '192.0.2.2', '192.0.2.2']) statuses.push((await register(h, address, host)).statusCode);
      assert.deepEqual(statuses, [201, 201, 201, 201]);
      const refused = await register(h, '192.0.2.3', host);
      assert.equal(refused.statusCode, 429);
      assert.match(refused.json().error_description, /redirect host/);
      assert.equal((await register(h, '192.0.2.3', 'https://other.example/cb')).statusCode, 201);
      for (const address of ['192.0.2.4', '192.0.2.5']) {
        for (let i = 0; i < 3; i += 1) assert.equal((await register(h, address)).statusCode, 201, 'localhost redirects share no host budget');
      }
    });
    assert.deepEqual(redirectHostsOf(['http://localhost:1/cb', 'http://127.0.0.1:2/cb', 'http://[::1]:3/cb', 'https://A.example/x', 'https://a.example/y']), ['a.example']);
  });

  test('X-Forwarded-For is ignored unless the proxy is trusted, and then names the client', async () => {
    await withHarness({ registrationsPerAddressPerHour: 2 }, async (h) => {
      assert.equal((await register(h, '192.0.2.10', LOCAL_REDIRECT, { 'x-forwarded-for': '198.51.100.1' })).statusCode, 201);
      assert.equal((await register(h, '192.0.2.10', LOCAL_REDIRECT, { 'x-forwarded-for': '198.51.100.2' })).statusCode, 201);
      assert.equal((await register(h, '192.0.2.10', LOCAL_REDIRECT, { 'x-forwarded-for': '198.51.100.3' })).statusCode, 429, 'a spoofed header is no way around the limit');
    });
    await withHarness({ registrationsPerAddressPerHour: 2, trustProxy: ['192.0.2.10'] }, async (h) => {
      for (const client of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
        assert.equal((await register(h, '192.0.2.10', LOCAL_REDIRECT, { 'x-forwarded-for': client })).statusCode, 201);
      }
      assert.equal((await register(h, '192.0.2.10', LOCAL_REDIRECT, { 'x-forwarded-for': '198.51.100.1' })).statusCode, 201);
      assert.equal((await register(h, '192.0.2.10', LOCAL_REDIRECT, { 'x-forwarded-for': '198.51.100.1' })).statusCode, 429);
    });
  });

  test('a registration never used for an authorization expires after a day and is purged', async () => {
    let now = new Date('2026-09-01T10:00:00Z');
    await withHarness({}, async (h) => {
      const created = await register(h, '192.0.2.20');
      const clientId = created.json().client_id as string;
      const authorize = () =>
        h.app.inject({
          method: 'GET',
          url: `/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOCAL_REDIRECT, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', state: 's' })}`,
        });
      assert.equal((await authorize()).statusCode, 200, 'the consent page while the registration is fresh');
      now = new Date(now.getTime() + 24 * 3600 * 1000);
      const expired = await authorize();
      assert.equal(expired.statusCode, 400);
      assert.match(expired.body, /not registered/);
      now = new Date(now.getTime() + 3600 * 1000);
      assert.equal((await register(h, '192.0.2.21')).statusCode, 201);
      assert.equal(await h.store.getClient(clientId), null, 'purged at the next registration');
    }, () => now);
  });
});
