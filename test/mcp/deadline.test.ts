// One request deadline on both edges: a tool call past REELAY_REQUEST_DEADLINE_MS answers a tool
// error saying the deadline passed, with the code and message REST's 504 carries.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEADLINE_MESSAGE } from '../../src/errors.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { freePort } from './harness.ts';

let stack: Stack;
let mcpUrl: string;
before(async () => {
  const port = await freePort();
  mcpUrl = `http://127.0.0.1:${port}`;
  // Each platform attempt may take 3 s; the request deadline is 1 s.
  stack = await startStack({ config: { mcpPublicUrl: mcpUrl, requestTimeoutMs: '3000', requestDeadlineMs: '1000' } });
  await stack.app.mcp.listen({ port, host: '127.0.0.1' });
  const rules = ['/api/user/detail/', '/@*'].map((path) => ({ path, probability: 1, kind: 'latency' as const, latencyMs: 4000 }));
  stack.emulator.setFaults({ rules });
});
after(() => stack.close());

async function callTool(name: string, args: Record<string, unknown>) {
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('the request deadline', () => {
  it('a tool call past the deadline is a tool error saying so, with the code of REST\'s 504', async () => {
    const username = stack.emulator.manifest.users.public;
    const { status, body } = await callTool('platform_get_user', { username: `${username}` });
    assert.equal(status, 200);
    assert.equal(body.result.isError, true);
    assert.equal(body.result.structuredContent.code, 'upstream_timeout');
    assert.equal(body.result.structuredContent.message, DEADLINE_MESSAGE);
    assert.equal(body.result.structuredContent.deadlineMs, 1000);
    const rest = await stack.get(`/v1/platform/users/${username}?projection_preset=minimal`);
    assert.equal(rest.status, 504);
    assert.equal(rest.json.code, 'upstream_timeout');
    assert.equal(rest.json.detail, DEADLINE_MESSAGE);
  });

  it('a tool call answered by the SDK (one with _meta) has the same deadline', async () => {
    const username = stack.emulator.manifest.users.withReposts ?? stack.emulator.manifest.users.live;
    const res = await fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'platform_get_user', arguments: { username }, _meta: { progressToken: 1 } } }),
    });
    const body = (await res.json()) as any;
    assert.equal(body.result.isError, true);
    assert.equal(body.result.structuredContent.code, 'upstream_timeout');
    assert.equal(body.result.structuredContent.message, DEADLINE_MESSAGE);
  });
});
