// The watch tools on the MCP tool server: listed beside the platform tools, backed by the same
// service as REST (a watch made by a tool is the REST watch), scoped to the calling key.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { startStack, type Stack } from '../helpers/stack.ts';
import { freePort } from '../helpers/ports.ts';
import { OPERATIONS } from '../../src/operations/registry.ts';

const runs = new EventEmitter();
let stack: Stack;
let mcpUrl: string;
before(async () => {
  const port = await freePort();
  mcpUrl = `http://127.0.0.1:${port}`;
  stack = await startStack({ config: { mcpPublicUrl: mcpUrl, watchMinInterval: '1s' }, services: { watchEvents: (e) => e.kind === 'run' && runs.emit('run', e.id) } });
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

test("each watch tool's outputSchema types data with the schema of its REST answer", async () => {
  const { result } = await rpc('tools/list', {});
  const expected: Record<string, string> = {
    watch_create: 'WatchWithSecretResponse', watch_list: 'WatchListResponse', watch_get: 'WatchResponse', watch_update: 'WatchUpdatedResponse',
    watch_delete: 'WatchDeletedResponse', watch_history: 'WatchHistoryResponse', watch_deliveries: 'DeliveryListResponse',
  };
  for (const [name, output] of Object.entries(expected)) {
    const tool = result.tools.find((t: { name: string }) => t.name === name);
    assert.deepEqual(tool.outputSchema.anyOf, [{ $ref: `#/$defs/${output}` }, { $ref: '#/$defs/ToolError' }], name);
    assert.deepEqual(tool.outputSchema.$defs[output].required, ['data'], name);
  }
  const get = result.tools.find((t: { name: string }) => t.name === 'watch_get').outputSchema;
  assert.deepEqual(get.$defs.WatchResponse.properties.data, { $ref: '#/$defs/Watch' });
  assert.ok(get.$defs.Watch.required.includes('nextRunAt'));
});

test('watch_history answers what the REST history answers, next included', async () => {
  const created = await rpc('tools/call', { name: 'watch_create', arguments: { kind: 'video', target: stack.emulator.manifest.videos.pinned, every: '1s' } });
  const id = created.result.structuredContent.data.id as string;
  // Two recorded runs, then a range that holds both and a limit of one: the answer has a `next`.
  await new Promise<void>((resolve, reject) => {
    let seen = 0;
    const timer = setTimeout(() => reject(new Error(`${seen} of 2 runs of ${id} within 15 s`)), 15_000);
    const onRun = (runId: string) => {
      if (runId !== id || ++seen < 2) return;
      clearTimeout(timer);
      runs.off('run', onRun);
      resolve();
    };
    runs.on('run', onRun);
  });
  const all = await stack.get(`/v1/watches/${id}/history`);
  const to = all.json.data.points[1].at as string;
  const rest = await stack.get(`/v1/watches/${id}/history?to=${encodeURIComponent(to)}&limit=1`);
  const tool = await rpc('tools/call', { name: 'watch_history', arguments: { id, to, limit: '1' } });
  assert.match(rest.json.data.next, /\/history\?from=\d+&to=.+&limit=1$/);
  assert.deepEqual(tool.result.structuredContent.data, rest.json.data);
  await rpc('tools/call', { name: 'watch_delete', arguments: { id } });
});
