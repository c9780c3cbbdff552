import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRedirectUri, matchRegisteredRedirect, redirectDisplayHost } from './redirect-uri.ts';

const TABLE: Array<[string, boolean]> = [
  ['https://claude.ai/api/mcp/auth_callback', true],
  ['https://claude.com/api/mcp/auth_callback', true],
  ['https://chatgpt.com/connector_platform_oauth_redirect', true],
  ['https://chatgpt.com/connector/oauth/abc123', true],
  ['https://vscode.dev/redirect', true],
  ['http://127.0.0.1/', true],
  ['http://127.0.0.1:33418/', true],
  ['http://localhost:6274/oauth/callback', true],
  ['http://[::1]:9000/cb', true],
  ['cursor://anysphere.cursor-mcp/oauth/callback', true],
  ['cursor://anysphere.cursor-mcp/oauth/other', false],
  ['myapp://callback', false],
  ['http://example.com/callback', false],
  ['http://127.0.0.1.evil.com/cb', false],
  ['https://example.com/cb#fragment', false],
  ['https://user:pass@example.com/cb', false],
  ['javascript:alert(1)', false],
  ['data:text/html,hi', false],
  ['file:///etc/passwd', false],
  ['/relative/callback', false],
  [`https://example.com/${'a'.repeat(2100)}`, false],
];

for (const [uri, ok] of TABLE) {
  test(`redirect URI ${uri.slice(0, 60)} is ${ok ? 'accepted' : 'refused'} at registration`, () => {
    assert.equal(checkRedirectUri(uri).ok, ok);
  });
}

test('authorization matches registered URIs exactly, except the port of loopback http hosts', () => {
  const registered = ['http://127.0.0.1:33418/', 'http://localhost/callback', 'https://vscode.dev/redirect'];
  assert.equal(matchRegisteredRedirect('http://127.0.0.1:40123/', registered), true);
  assert.equal(matchRegisteredRedirect('http://localhost:5555/callback', registered), true);
  assert.equal(matchRegisteredRedirect('https://vscode.dev/redirect', registered), true);
  assert.equal(matchRegisteredRedirect('https://vscode.dev/redirect/', registered), false);
  assert.equal(matchRegisteredRedirect('https://vscode.dev:8443/redirect', registered), false);
  assert.equal(matchRegisteredRedirect('http://localhost:5555/other', registered), false);
  assert.equal(matchRegisteredRedirect('http://127.0.0.1:40123/?x=1', registered), false);
  // Loopback relaxation never crosses host names: 127.0.0.1 registered does not allow localhost.
  assert.equal(matchRegisteredRedirect('http://localhost:33418/', registered), false);
});

test('an unregistrable URI never matches, even if listed (same validator at both steps)', () => {
  assert.equal(matchRegisteredRedirect('http://example.com/cb', ['http://example.com/cb']), false);
});

test('the consent page shows the host, or scheme and host for private-use URIs', () => {
  assert.equal(redirectDisplayHost('https://claude.ai/api/mcp/auth_callback'), 'claude.ai');
  assert.equal(redirectDisplayHost('http://127.0.0.1:33418/'), '127.0.0.1:33418');
  assert.equal(redirectDisplayHost('cursor://anysphere.cursor-mcp/oauth/callback'), 'cursor://anysphere.cursor-mcp');
});
