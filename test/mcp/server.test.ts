// The MCP endpoint over HTTP: authentication order, Accept normalisation, Host/Origin checks, CORS,
// tool listing (2020-12 schemas, annotations) and tool results/errors, driven with inject().
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { OPERATIONS } from '../../src/operations/registry.ts';
import { project } from '../../src/activitystreams/index.ts';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness({ listen: false });
});
after(async () => h.close());

const host = () => new URL(h.url).host;
function rpc(method: string, params: object = {}, headers: Record<string, string> = {}) {
  return h.app.inject({
    method: 'POST',
    url: '/',
    headers: { host: host(), authorization: `Bearer ${h.key}`, 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
}
const call = (name: string, args: object) => rpc('tools/call', { name, arguments: args });

describe('authentication', () => {
  test('a POST without a key is 401 with an absolute resource_metadata challenge', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/', headers: { host: host(), 'content-type': 'application/json' }, payload: '{}' });
    assert.equal(res.statusCode, 401);
    assert.equal(
      res.headers['www-authenticate'],
      `Bearer resource_metadata="${h.url}/.well-known/oauth-protected-resource", scope="read"`,
    );
  });

  test('an unknown key is 401 invalid_token and the key never appears in the answer', async () => {
    const bogus = `rly_${'A'.repeat(43)}`;
    const res = await rpc('tools/list', {}, { authorization: `Bearer ${bogus}` });
    assert.equal(res.statusCode, 401);
    assert.match(String(res.headers['www-authenticate']), /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"/);
    assert.ok(!res.body.includes(bogus));
  });

  test('a key sent in the query string is refused even when valid', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: `/?access_token=${h.key}`,
      headers: { host: host(), 'content-type': 'application/json' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(res.statusCode, 400);
    assert.match(String(res.headers['www-authenticate']), /error="invalid_request"/);
  });

  test('a revoked key stops working at once', async () => {
    const { key, record } = await h.keys.create({ accountName: 'alice', name: 'short' });
    assert.equal((await rpc('tools/list', {}, { authorization: `Bearer ${key}` })).statusCode, 200);
    await h.keys.revoke(record.id);
    assert.equal((await rpc('tools/list', {}, { authorization: `Bearer ${key}` })).statusCode, 401);
  });

  test('a key minted for another resource is refused (RFC 8707 audience)', async () => {
    const { key } = await h.keys.create({ accountName: 'alice', name: 'other', resource: 'https://elsewhere.example' });
    assert.equal((await rpc('tools/list', {}, { authorization: `Bearer ${key}` })).statusCode, 401);
  });

  for (const method of ['GET', 'DELETE'] as const) {
    test(`${method} / answers 401 without a key, then 405 Allow: POST with one`, async () => {
      const anonymous = await h.app.inject({ method, url: '/', headers: { host: host() } });
      assert.equal(anonymous.statusCode, 401);
      assert.ok(anonymous.headers['www-authenticate']);
      const authed = await h.app.inject({ method, url: '/', headers: { host: host(), authorization: `Bearer ${h.key}` } });
      assert.equal(authed.statusCode, 405);
      assert.equal(authed.headers.allow, 'POST');
    });
  }
});

describe('transport', () => {
  test('a bare POST with only Authorization and Content-Type gets a JSON answer (Accept normalised)', async () => {
    const res = await rpc('tools/list');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.equal(res.headers['mcp-session-id'], undefined);
    assert.equal(res.json().result.tools.length, OPERATIONS.length);
  });

  test('initialize answers without a session id and advertises tools', async () => {
    const res = await rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }, { accept: 'application/json' });
    assert.equal(res.statusCode, 200);
    const result = res.json().result;
    assert.equal(result.protocolVersion, '2025-11-25');
    assert.ok(result.capabilities.tools);
    assert.equal(res.headers['mcp-session-id'], undefined);
  });

  test('the instructions steer agents to small presets and pages, and say how minimal names objects', async () => {
    const res = await rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }, { accept: 'application/json' });
    const { instructions } = res.json().result;
    for (const phrase of ['projection_preset "minimal"', '"standard"', 'count 5 to 10', 'nextCursor', 'internalId', 'preferredUsername', 'platform_get_video_transcript']) {
      assert.ok(instructions.includes(phrase), phrase);
    }
  });

  test('concurrent requests are answered independently (stateless: any node, any call)', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => rpc('tools/list')));
    assert.deepEqual(answers.map((a) => a.statusCode), [200, 200, 200]);
  });

  test('a body that is not JSON is a JSON-RPC parse error', async () => {
    const res = await h.app.inject({
      method: 'POST', url: '/', payload: '{"jsonrpc":',
      headers: { host: host(), authorization: `Bearer ${h.key}`, 'content-type': 'application/json' },
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.code, -32700);
  });

  test('an unknown method is a JSON-RPC method-not-found error', async () => {
    const res = await rpc('resources/list');
    assert.equal(res.json().error.code, -32601);
  });

  test('an unsupported MCP-Protocol-Version is 400', async () => {
    const res = await rpc('tools/list', {}, { 'mcp-protocol-version': '1999-01-01' });
    assert.equal(res.statusCode, 400);
  });
});

describe('Host and Origin', () => {
  test('a foreign Host header is 403 before authentication (DNS rebinding)', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/', headers: { host: 'evil.example.com', 'content-type': 'application/json' }, payload: '{}' });
    assert.equal(res.statusCode, 403);
  });

  test('an allow-listed extra host name is accepted', async () => {
    const res = await rpc('tools/list', {}, { host: `localhost:${new URL(h.url).port}` });
    assert.equal(res.statusCode, 200);
  });

  test('a browser Origin not on the allow-list is 403', async () => {
    const res = await rpc('tools/list', {}, { origin: 'https://evil.example.com' });
    assert.equal(res.statusCode, 403);
  });

  test('an allowed Origin gets CORS headers that expose WWW-Authenticate', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/', headers: { host: host(), origin: 'http://localhost:6274', 'content-type': 'application/json' }, payload: '{}' });
    assert.equal(res.statusCode, 401);
    assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:6274');
    assert.match(String(res.headers['access-control-expose-headers']), /WWW-Authenticate/);
  });

  test('a CORS preflight is answered without a key', async () => {
    const res = await h.app.inject({
      method: 'OPTIONS', url: '/',
      headers: { host: host(), origin: 'http://localhost:6274', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(res.statusCode, 204);
    assert.match(String(res.headers['access-control-allow-headers']), /Authorization/);
  });
});

describe('tools/list', () => {
  test('one tool per operation with title, description, read-only annotations and 2020-12 schemas', async () => {
    const tools = (await rpc('tools/list')).json().result.tools;
    assert.deepEqual(tools.map((t: { name: string }) => t.name).sort(), OPERATIONS.map((op) => op.tool).sort());
    for (const tool of tools) {
      assert.match(tool.name, /^[A-Za-z0-9._-]{1,128}$/);
      assert.ok(tool.title && tool.description, tool.name);
      assert.deepEqual(tool.annotations, { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
      assert.equal(tool.inputSchema.$schema, 'https://json-schema.org/draft/2020-12/schema');
      assert.equal(tool.inputSchema.type, 'object');
      // The answer (any preset) or the tool error, from the same zod schemas as OpenAPI.
      assert.equal(tool.outputSchema.$schema, 'https://json-schema.org/draft/2020-12/schema');
      assert.equal(tool.outputSchema.type, 'object');
      const op = OPERATIONS.find((o) => o.tool === tool.name)!;
      assert.deepEqual(tool.outputSchema.anyOf, [{ $ref: `#/$defs/${op.output}` }, { $ref: '#/$defs/ToolError' }]);
      assert.ok(Object.keys(tool.outputSchema.$defs[op.output].properties).length > 0, tool.name);
      assert.deepEqual(tool.inputSchema.properties.projection_preset.enum, ['minimal', 'standard', 'full']);
      assert.equal(tool.inputSchema.properties.projection_preset.default, 'full');
      assert.match(tool.inputSchema.properties.projection_preset.description, /"minimal"/);
      assert.match(tool.description, /projection_preset/, `${tool.name} advises on presets`);
      if (tool.inputSchema.properties.count) assert.match(tool.inputSchema.properties.count.description, /nextCursor/);
      assert.ok(!JSON.stringify(tool).includes('draft-07'));
      assert.ok(!/"type":\[/.test(JSON.stringify(tool.inputSchema)), `${tool.name} has a type array`);
    }
  });

  test('parameters, limits and defaults mirror REST: counts are integers with their REST maximum', async () => {
    const tools = (await rpc('tools/list')).json().result.tools;
    const videos = tools.find((t: { name: string }) => t.name === 'platform_get_user_videos');
    assert.deepEqual(videos.inputSchema.required, ['username']);
    assert.equal(videos.inputSchema.properties.count.type, 'integer');
    assert.equal(videos.inputSchema.properties.count.maximum, 35);
    assert.equal(videos.inputSchema.properties.count.default, 35);
    const comments = tools.find((t: { name: string }) => t.name === 'platform_get_video_comments');
    assert.equal(comments.inputSchema.properties.count.maximum, 50);
    const user = tools.find((t: { name: string }) => t.name === 'platform_get_user');
    assert.deepEqual(Object.keys(user.inputSchema.properties).sort(), ['projection_preset', 'username']);
  });

  test('the transcript tool has no format switch: it always answers the Document', async () => {
    const tools = (await rpc('tools/list')).json().result.tools;
    const transcript = tools.find((t: { name: string }) => t.name === 'platform_get_video_transcript');
    assert.equal(transcript.inputSchema.properties.format, undefined);
    h.calls.length = 0;
    await call('platform_get_video_transcript', { videoId: '123', language: 'en-US', format: 'vtt' });
    assert.equal((h.calls[0].input as { format?: string }).format, undefined);
  });
});

describe('tools/call', () => {
  const golden = JSON.parse(readFileSync(new URL('../fixtures/golden/user-detail.json', import.meta.url), 'utf8'));

  for (const preset of ['minimal', 'standard', 'full'] as const) {
    test(`structuredContent is the REST data in preset ${preset}, and the text is the same JSON`, async () => {
      const result = (await call('platform_get_user', { username: 'someone', projection_preset: preset })).json().result;
      const expected = preset === 'full' ? golden : project(golden, preset);
      assert.deepEqual(result.structuredContent, expected);
      assert.deepEqual(JSON.parse(result.content[0].text), expected);
      assert.equal(result.isError, undefined);
    });
  }

  test('the default preset is full, as on REST', async () => {
    const result = (await call('platform_get_user', { username: 'someone' })).json().result;
    assert.deepEqual(result.structuredContent, golden);
  });

  test('invalid input is an isError result with code invalid_request and the bad parameters', async () => {
    const result = (await call('platform_get_user_videos', { username: 'someone', count: 99 })).json().result;
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent.code, 'invalid_request');
    assert.match(result.structuredContent.message, /count/);
    assert.equal(result.structuredContent.params[0].name, 'count');
    assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  });

  const cases = [
    ['platform_get_user', { username: 'missing' }, 'not_found'],
    ['platform_get_user', { username: 'secret' }, 'private_account'],
    ['platform_get_user', { username: 'slowpoke' }, 'upstream_timeout'],
    ['platform_get_user_live', { username: 'someone' }, 'not_live'],
    ['platform_get_video_transcript', { videoId: '1', language: 'en-US' }, 'no_transcript'],
  ] as const;
  for (const [tool, args, code] of cases) {
    test(`${code} is an isError tool result with the REST code and message`, async () => {
      const result = (await call(tool, args)).json().result;
      assert.equal(result.isError, true);
      assert.equal(result.structuredContent.code, code);
      assert.equal(typeof result.structuredContent.message, 'string');
    });
  }

  test('no_transcript carries its details (the languages that exist)', async () => {
    const result = (await call('platform_get_video_transcript', { videoId: '1', language: 'en-US' })).json().result;
    assert.deepEqual(result.structuredContent.languages, ['en-US']);
  });

  test('an unknown tool is a JSON-RPC invalid-params error', async () => {
    const body = (await call('platform_nope', {})).json();
    assert.equal(body.error.code, -32602);
    assert.equal(body.result, undefined);
  });

  const malformed: Array<[string, unknown, RegExp]> = [
    ['no params', undefined, /params/],
    ['params without a name', {}, /params\.name/],
    ['a name that is not a string', { name: 42 }, /params\.name/],
    ['arguments that are a string', { name: 'platform_get_user', arguments: 'x' }, /arguments must be an object/],
    ['arguments that are an array', { name: 'platform_get_user', arguments: [1] }, /arguments must be an object/],
  ];
  for (const [what, params, message] of malformed) {
    test(`a tools/call with ${what} is JSON-RPC invalid params with a readable message, not an internal error`, async () => {
      const response = await h.app.inject({
        method: 'POST',
        url: '/',
        headers: { host: host(), authorization: `Bearer ${h.key}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', ...(params === undefined ? {} : { params }) }),
      });
      const body = response.json();
      assert.equal(body.id, 7);
      assert.equal(body.error.code, -32602);
      assert.match(body.error.message, message);
      assert.ok(!body.error.message.includes('invalid_type'), body.error.message);
    });
  }

  test('an internal fault is a JSON-RPC internal error without internal text, logged server-side', async () => {
    const body = (await call('platform_get_user', { username: 'crash' })).json();
    assert.equal(body.error.code, -32603);
    assert.equal(body.error.message, 'Internal error');
    assert.ok(!JSON.stringify(body).includes('hunter2'));
    assert.ok(h.logs.some((l) => l.level === 'error'));
  });
});
