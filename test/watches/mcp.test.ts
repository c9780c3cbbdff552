// The watch tools on the MCP tool server: listed beside the platform tools, backed by the same
// service as REST (a watch made by a tool is the REST watch), scoped to the calling key.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '../helpers/stack.ts';
import { freePort } from '../helpers/ports.ts';
import { OPERATIONS } from '../../src/operations/registry.ts';

let stack: Stack;
let mcpUrl: string;
before(async () => {
  const port = await freePort();
  mcpUrl = `http://127.0.0.1:${port}`;
  stack = await startStack({ config: { mcpPublicUrl: mcpUrl, watchMinInterval: '1s' } });
  await stack.app.mcp.listen({ port, host: '127.0.0.1' });
});
after(() => stack.close());

async function rpc(method: string, params: Record<string, unknown>, key = stack.key) {
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as any;
}

test('the watch tools are listed after the platform tools, with input schemas', async () => {
  const { result } = await rpc('tools/list', {});
  const names = result.tools.map((t: { name: string }) => t.name);
  assert.deepEqual(names.slice(0, OPERATIONS.length), OPERATIONS.map((op) => op.tool));
  assert.deepEqual(names.slice(OPERATIONS.length), ['watch_create', 'watch_list', 'watch_get', 'watch_update', 'watch_delete', 'watch_history', 'watch_deliveries']);
  const create = result.tools.find((t: { name: string }) => t.name === 'watch_create');
  assert.deepEqual(create.inputSchema.required, ['kind', 'target', 'every']);
  assert.equal(create.annotations.readOnlyHint, false);
});

test('a watch created by a tool is the REST watch; another key gets not_found as a tool error', async () => {
  const created = await rpc('tools/call', { name: 'watch_create', arguments: { kind: 'tag', target: stack.emulator.manifest.tags.popular, every: '1m' } });
  const id = created.result.structuredContent.data.id as string;
  assert.match(id, /^wch_/);
  const rest = await stack.get(`/v1/watches/${id}`);
  assert.equal(rest.status, 200);
  assert.deepEqual((await rpc('tools/call', { name: 'watch_get', arguments: { id } })).result.structuredContent.data, rest.json.data);
  const other = (await stack.app.services.keys.create({ name: 'other' })).key;
  const foreign = await rpc('tools/call', { name: 'watch_get', arguments: { id } }, other);
  assert.equal(foreign.result.isError, true);
  assert.equal(foreign.result.structuredContent.code, 'not_found');
  const bad = await rpc('tools/call', { name: 'watch_create', arguments: { kind: 'tag', target: 'x', every: '1ms' } });
  assert.equal(bad.result.isError, true);
  assert.equal(bad.result.structuredContent.code, 'invalid_request');
  assert.equal((await rpc('tools/call', { name: 'watch_delete', arguments: { id } })).result.structuredContent.data.deleted, id);
});
