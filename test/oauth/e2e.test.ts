// Headless end-to-end OAuth with the SDK's own client (`auth()`): discovery, dynamic registration for
// each real client shape, PKCE, consent over HTTP, token, tools/list and tools/call with the minted
// key, refresh rotation, reuse detection and revocation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { startHarness, type Harness } from '../mcp/harness.ts';
import { approve } from './consent-client.ts';
import { MemoryProvider } from './sdk-provider.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => h.close());

type Shape = { label: string; metadata: OAuthClientMetadata; authorizeRedirect: string; expectedMethod: string };

const base = { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] };
const SHAPES: Shape[] = [
  {
    label: 'Claude web connector (client_secret_post, hosted callback)',
    metadata: { ...base, client_name: 'Claude', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'], token_endpoint_auth_method: 'client_secret_post' },
    authorizeRedirect: 'https://claude.ai/api/mcp/auth_callback',
    expectedMethod: 'client_secret_post',
  },
  {
    label: 'Claude Code (client_secret_basic, loopback port changes)',
    metadata: { ...base, client_name: 'Claude Code (reelay)', redirect_uris: ['http://localhost:53682/callback'], token_endpoint_auth_method: 'client_secret_basic' },
    authorizeRedirect: 'http://localhost:61111/callback',
    expectedMethod: 'client_secret_basic',
  },
  {
    label: 'ChatGPT (public client, connector callback)',
    metadata: { ...base, client_name: 'ChatGPT', redirect_uris: ['https://chatgpt.com/connector_platform_oauth_redirect', 'https://chatgpt.com/connector/oauth/abc123'], token_endpoint_auth_method: 'none' },
    authorizeRedirect: 'https://chatgpt.com/connector_platform_oauth_redirect',
    expectedMethod: 'none',
  },
  {
    label: "Cursor (three redirect URIs including cursor://)",
    metadata: {
      ...base,
      client_name: 'Cursor',
      redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback', 'https://www.cursor.com/agents/mcp/oauth/callback', 'http://localhost:8787/callback'],
      token_endpoint_auth_method: 'none',
    },
    authorizeRedirect: 'cursor://anysphere.cursor-mcp/oauth/callback',
    expectedMethod: 'none',
  },
  {
    label: 'VS Code (four redirect URIs, authorizes on another loopback port)',
    metadata: {
      ...base,
      client_name: 'Visual Studio Code',
      redirect_uris: ['https://insiders.vscode.dev/redirect', 'https://vscode.dev/redirect', 'http://127.0.0.1/', 'http://127.0.0.1:33418/'],
      token_endpoint_auth_method: 'none',
    },
    authorizeRedirect: 'http://127.0.0.1:40123/',
    expectedMethod: 'none',
  },
  {
    label: 'MCP Inspector (public client, localhost:6274)',
    metadata: { ...base, client_name: 'MCP Inspector', redirect_uris: ['http://localhost:6274/oauth/callback'], token_endpoint_auth_method: 'none' },
    authorizeRedirect: 'http://localhost:6274/oauth/callback',
    expectedMethod: 'none',
  },
];

async function connect(provider: MemoryProvider): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(h.url), { authProvider: provider }));
  return client;
}

async function authorizeFully(provider: MemoryProvider): Promise<void> {
  assert.equal(await auth(provider, { serverUrl: h.url }), 'REDIRECT');
  const authUrl = provider.authorizationUrl!;
  assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(authUrl.searchParams.get('resource'), h.url);
  const back = await approve(authUrl, h.key);
  assert.equal(back.searchParams.get('state'), provider.state());
  assert.equal(back.searchParams.get('iss'), h.url);
  const code = back.searchParams.get('code');
  assert.ok(code);
  assert.equal(await auth(provider, { serverUrl: h.url, authorizationCode: code }), 'AUTHORIZED');
}

async function mcpStatus(key: string): Promise<number> {
  const res = await fetch(h.url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('OAuth with the SDK client, per client shape', () => {
  for (const shape of SHAPES) {
    test(`${shape.label}: register, consent, token, tools/list, tools/call, refresh, revoke`, async () => {
      const provider = new MemoryProvider(shape.authorizeRedirect, shape.metadata);
      await authorizeFully(provider);
      const info = provider.clientInformation()!;
      assert.equal((info as { token_endpoint_auth_method?: string }).token_endpoint_auth_method, shape.expectedMethod);
      assert.equal('client_secret' in info, shape.expectedMethod !== 'none');

      const tokens = provider.tokens()!;
      assert.match(tokens.access_token, /^rly_/);
      assert.equal(tokens.token_type, 'Bearer');
      assert.equal(tokens.expires_in, 3600);
      assert.ok(tokens.refresh_token);

      // The access token is an ordinary API key of the same account, with client, resource and expiry recorded.
      const record = await h.keys.authenticate(tokens.access_token);
      assert.ok(record);
      assert.equal(record.accountId, h.accountId);
      assert.equal(record.oauthClientId, info.client_id);
      assert.equal(record.resource, h.url);
      assert.equal(record.name, `oauth:${shape.metadata.client_name}`);
      assert.ok(record.expiresAt);

      const client = await connect(provider);
      const { tools } = await client.listTools();
      assert.equal(tools.length, 12);
      const result = await client.callTool({ name: 'platform_get_user', arguments: { username: 'someone', projection_preset: 'minimal' } });
      assert.equal(result.isError, undefined);
      assert.equal((result.structuredContent as { type: string }).type, 'Person');
      await client.close();

      // Refresh rotates: a new key and a new refresh token; the old refresh token is spent.
      const first = provider.tokens()!;
      assert.equal(await auth(provider, { serverUrl: h.url }), 'AUTHORIZED');
      const second = provider.tokens()!;
      assert.notEqual(second.access_token, first.access_token);
      assert.notEqual(second.refresh_token, first.refresh_token);
      assert.equal(await mcpStatus(second.access_token), 200);

      // Revocation (RFC 7009) ends MCP access for the minted key.
      const revoke = new URLSearchParams({ token: second.access_token, client_id: info.client_id });
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
      if (shape.expectedMethod === 'client_secret_basic') {
        headers.authorization = `Basic ${Buffer.from(`${info.client_id}:${info.client_secret}`).toString('base64')}`;
        revoke.delete('client_id');
      } else if (info.client_secret) revoke.set('client_secret', info.client_secret);
      const revoked = await fetch(`${h.url}/revoke`, { method: 'POST', headers, body: revoke });
      assert.equal(revoked.status, 200);
      assert.equal(await mcpStatus(second.access_token), 401);
      assert.equal(await h.keys.authenticate(second.access_token), null);
    });
  }
});

describe('OAuth edge cases with the SDK client', () => {
  const inspector = SHAPES[5];

  test('reusing a rotated refresh token revokes the whole family, including the current key', async () => {
    const provider = new MemoryProvider(inspector.authorizeRedirect, inspector.metadata);
    await authorizeFully(provider);
    const stolen = provider.tokens()!.refresh_token!;
    assert.equal(await auth(provider, { serverUrl: h.url }), 'AUTHORIZED');
    const current = provider.tokens()!;
    assert.equal(await mcpStatus(current.access_token), 200);

    const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: stolen, client_id: provider.clientInformation()!.client_id });
    const res = await fetch(`${h.url}/token`, { method: 'POST', body });
    assert.equal(res.status, 400);
    assert.equal((await res.json() as any).error, 'invalid_grant');
    assert.equal(await mcpStatus(current.access_token), 401);
    const again = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: current.refresh_token!, client_id: provider.clientInformation()!.client_id });
    assert.equal((await fetch(`${h.url}/token`, { method: 'POST', body: again })).status, 400);
  });

  test('a flow without scope and without resource gets the default scope and the server resource', async () => {
    const provider = new MemoryProvider(inspector.authorizeRedirect, inspector.metadata);
    assert.equal(await auth(provider, { serverUrl: h.url }), 'REDIRECT');
    const url = provider.authorizationUrl!;
    url.searchParams.delete('scope');
    url.searchParams.delete('resource');
    const back = await approve(url, h.key);
    const code = back.searchParams.get('code')!;
    const res = await fetch(`${h.url}/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code', code, code_verifier: provider.codeVerifier(),
        redirect_uri: inspector.authorizeRedirect, client_id: provider.clientInformation()!.client_id,
      }),
    });
    assert.equal(res.status, 200);
    const tokens = await res.json() as any;
    assert.equal(tokens.scope, 'read');
    assert.equal((await h.keys.authenticate(tokens.access_token))!.resource, h.url);
  });
});
