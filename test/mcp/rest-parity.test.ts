// The tool server and the REST API over one real service and the emulator: every tool returns the
// REST `data` for the same input, errors carry the same code and message, and a key minted by the
// OAuth flow works on REST until it is revoked, after which both transports refuse it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { startStack, type Stack } from '../helpers/stack.ts';
import { freePort } from './harness.ts';
import { approve } from '../oauth/consent-client.ts';
import { MemoryProvider } from '../oauth/sdk-provider.ts';
import { defaultCalls } from './preset-sizes.ts';
import { OPERATIONS } from '../../src/operations/registry.ts';

let stack: Stack;
let mcpUrl: string;
let m: any;
before(async () => {
  const port = await freePort();
  mcpUrl = `http://127.0.0.1:${port}`;
  stack = await startStack({ config: { mcpPublicUrl: mcpUrl } });
  await stack.app.mcp.listen({ port, host: '127.0.0.1' });
  m = stack.emulator.manifest;
});
after(() => stack.close());

async function callTool(name: string, args: Record<string, unknown>, key = stack.key) {
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Tool name, its arguments, and the REST path serving the same input. */
function cases(): Array<[string, Record<string, unknown>, string]> {
  const { id, commentId } = m.videos.withReplies;
  const transcript = m.videos.withTranscripts;
  return [
    ['platform_get_user', { username: m.users.public }, `/v1/platform/users/${m.users.public}`],
    ['platform_get_user_videos', { username: `@${m.users.public}`, count: 7, order: 'popular' }, `/v1/platform/users/${m.users.public}/videos?count=7&order=popular`],
    ['platform_get_user_reposts', { username: m.users.withReposts ?? m.users.public, count: 4 }, `/v1/platform/users/${m.users.withReposts ?? m.users.public}/reposts?count=4`],
    ['platform_get_user_likes', { username: m.users.public, count: 5 }, `/v1/platform/users/${m.users.public}/likes?count=5`],
    ['platform_get_user_collections', { username: m.users.withPlaylists ?? m.users.public }, `/v1/platform/users/${m.users.withPlaylists ?? m.users.public}/collections`],
    ['platform_get_user_followers', { username: m.users.public, count: 3 }, `/v1/platform/users/${m.users.public}/followers?count=3`],
    ['platform_get_user_live', { username: m.users.live }, `/v1/platform/users/${m.users.live}/live`],
    ['platform_get_video', { videoId: id }, `/v1/platform/videos/${id}`],
    ['platform_get_video_comments', { videoId: id, count: 6 }, `/v1/platform/videos/${id}/comments?count=6`],
    ['platform_get_comment_replies', { videoId: id, commentId }, `/v1/platform/videos/${id}/comments/${commentId}/replies`],
    ['platform_get_video_transcript', { videoId: transcript.id, language: transcript.languages[0] }, `/v1/platform/videos/${transcript.id}/transcripts/${transcript.languages[0]}`],
    ['platform_get_tag_videos', { tagName: m.tags.popular, count: 5 }, `/v1/platform/tags/${m.tags.popular}?count=5`],
  ];
}

describe('every tool mirrors its REST operation', () => {
  it('a call with default arguments answers byte for byte the REST data, as structuredContent and as text', async () => {
    const calls = defaultCalls(m);
    assert.deepEqual(calls.map((c) => c.tool).sort(), OPERATIONS.map((op) => op.tool).sort());
    for (const { tool, args, path } of calls) {
      const rest = await stack.get(path);
      assert.equal(rest.status, 200, `${tool} REST: ${rest.body}`);
      const data = rest.body.slice('{"data":'.length, -1);
      const mcp = await callTool(tool, args);
      const result = mcp.body.result;
      assert.notEqual(result.isError, true, `${tool}: ${JSON.stringify(result)}`);
      assert.equal(JSON.stringify(result.structuredContent), data, tool);
      assert.equal(result.content.length, 1);
      assert.equal(result.content[0].text, data, `${tool} text`);
    }
  });

  it('structuredContent equals REST data for the same input, in every preset', async () => {
    const tools = cases();
    assert.equal(tools.length, 12);
    for (const [tool, args, path] of tools) {
      for (const preset of ['full', 'standard', 'minimal']) {
        const rest = await stack.get(`${path}${path.includes('?') ? '&' : '?'}projection_preset=${preset}`);
        assert.equal(rest.status, 200, `${tool} REST: ${rest.body}`);
        const mcp = await callTool(tool, { ...args, projection_preset: preset });
        assert.equal(mcp.status, 200);
        const result = mcp.body.result;
        assert.notEqual(result.isError, true, `${tool}: ${JSON.stringify(result)}`);
        assert.deepEqual(result.structuredContent, rest.json.data, `${tool} (${preset})`);
        assert.deepEqual(JSON.parse(result.content[0].text), rest.json.data);
      }
    }
  });

  it('the fast tools/call path answers byte-for-byte what the SDK path answers', async () => {
    const [tool, args] = cases()[1];
    for (const preset of ['full', 'minimal']) {
      const fast = await callTool(tool, { ...args, projection_preset: preset });
      const viaSdk = await fetch(mcpUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
        // `_meta` sends the request through the SDK's own server and transport.
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: { ...args, projection_preset: preset }, _meta: {} } }),
      });
      assert.deepEqual(fast.body, await viaSdk.json());
    }
    const missing = await callTool(tool, { username: 'no.such.user.zz9' });
    const missingViaSdk = await fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: { username: 'no.such.user.zz9' }, _meta: {} } }),
    });
    assert.deepEqual(missing.body, await missingViaSdk.json());
  });

  it('the fast path writes the same bytes and headers as the SDK path, for any request id', async () => {
    const [tool, args] = cases()[1];
    const post = (id: unknown, meta: boolean) =>
      fetch(mcpUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args, ...(meta ? { _meta: {} } : {}) } }),
      });
    for (const id of [1, 'req-"7"', 9007199254740991]) {
      // Twice: the second call is answered from the memoised result bytes.
      for (let round = 0; round < 2; round++) {
        const fast = await post(id, false);
        const viaSdk = await post(id, true);
        const [fastText, sdkText] = [await fast.text(), await viaSdk.text()];
        assert.equal(fastText, sdkText, `id ${JSON.stringify(id)}`);
        assert.equal(fast.status, viaSdk.status);
        assert.equal(fast.headers.get('content-type'), 'application/json');
        assert.equal(Number(fast.headers.get('content-length')), Buffer.byteLength(fastText));
        assert.equal(JSON.parse(fastText).id, id);
      }
    }
  });

  it('errors carry the same code and message on both transports', async () => {
    const checks: Array<[string, Record<string, unknown>, string]> = [
      ['platform_get_user', { username: 'no.such.user.zz9' }, '/v1/platform/users/no.such.user.zz9'],
      ['platform_get_user_videos', { username: m.users.private }, `/v1/platform/users/${m.users.private}/videos`],
      ['platform_get_user_live', { username: m.users.notLive }, `/v1/platform/users/${m.users.notLive}/live`],
      ['platform_get_user_videos', { username: m.users.public, count: 99 }, `/v1/platform/users/${m.users.public}/videos?count=99`],
    ];
    for (const [tool, args, path] of checks) {
      const rest = await stack.get(path);
      const mcp = await callTool(tool, args);
      const result = mcp.body.result;
      assert.equal(result.isError, true, tool);
      assert.equal(result.structuredContent.code, rest.json.code);
      assert.equal(result.structuredContent.message, rest.json.detail);
    }
  });
});

describe('an OAuth-minted key is a REST key', () => {
  it('works on REST, and after revocation fails on REST and MCP at once', async () => {
    const redirect = 'http://localhost:6274/oauth/callback';
    const provider = new MemoryProvider(redirect, {
      client_name: 'MCP Inspector',
      redirect_uris: [redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    assert.equal(await auth(provider, { serverUrl: mcpUrl }), 'REDIRECT');
    const back = await approve(provider.authorizationUrl!, stack.key);
    assert.equal(await auth(provider, { serverUrl: mcpUrl, authorizationCode: back.searchParams.get('code')! }), 'AUTHORIZED');
    const minted = provider.tokens()!.access_token;
    const path = `/v1/platform/users/${m.users.public}`;
    const headers = { authorization: `Bearer ${minted}` };
    assert.equal((await stack.app.rest.inject({ method: 'GET', url: path, headers })).statusCode, 200);
    assert.equal((await callTool('platform_get_user', { username: m.users.public }, minted)).status, 200);

    const revoke = await fetch(`${mcpUrl}/revoke`, {
      method: 'POST',
      body: new URLSearchParams({ token: minted, client_id: provider.clientInformation()!.client_id }),
    });
    assert.equal(revoke.status, 200);
    assert.equal((await stack.app.rest.inject({ method: 'GET', url: path, headers })).statusCode, 401);
    assert.equal((await callTool('platform_get_user', { username: m.users.public }, minted)).status, 401);
  });
});

describe('cursors', () => {
  it('a cursor handed out by REST pages the tool too; a foreign or altered one is invalid_cursor and costs no platform request', async () => {
    const first = await stack.get(`/v1/platform/users/${m.users.public}/videos?count=3`);
    const cursor: string = first.json.data.nextCursor;
    const next = await callTool('platform_get_user_videos', { username: m.users.public, count: 3, cursor });
    assert.equal(next.body.result.isError, undefined, JSON.stringify(next.body));
    assert.equal(next.body.result.structuredContent.orderedItems.length, 3);
    const platformRequests = () => Object.values(stack.emulator.stats()).reduce((n: number, v) => n + (v as number), 0);
    const before = platformRequests();
    for (const args of [
      { username: m.users.manyVideos, cursor },
      { username: m.users.public, order: 'oldest', cursor },
      // The second-last character is all MAC bits (the last one only partly), so this always alters it.
      { username: m.users.public, cursor: `${cursor.slice(0, -2)}${cursor.at(-2) === 'A' ? 'B' : 'A'}${cursor.at(-1)}` },
    ]) {
      const answer = await callTool('platform_get_user_videos', args);
      assert.equal(answer.body.result.isError, true, JSON.stringify(args));
      assert.equal(answer.body.result.structuredContent.code, 'invalid_cursor');
    }
    assert.equal(platformRequests(), before);
  });
});
