// The answer contract the harnesses enforce (test/helpers/contract.ts): it checks real answers of
// every kind, and it fails, loudly and on the spot, on a malformed one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';
import { useStack } from '../helpers/stack.ts';
import { checkRestAnswer, checkToolAnswer, enforceContract } from '../helpers/contract.ts';

const ctx = useStack();
const golden = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/golden/${name}.json`, import.meta.url), 'utf8'));
const json = 'application/json; charset=utf-8';

describe('the contract checks what the suites receive', () => {
  it('REST answers of every answer schema and preset are checked, and problems too', async () => {
    const { m } = ctx;
    const user = m.users.public;
    const paths = [
      `/v1/platform/users/${user}`,
      `/v1/platform/users/${user}/videos?count=2&projection_preset=minimal`,
      `/v1/platform/users/${user}/videos?count=2&projection_preset=standard`,
      `/v1/platform/users/${user}/followers?count=2`,
      `/v1/platform/videos/${m.videos.withReplies.id}/comments?count=2`,
      '/v1/platform/users/no.such.user.zz9',
    ];
    for (const path of paths) await ctx.stack.get(path);
    const checked = ctx.stack.contract.rest.checked;
    for (const schema of ['PersonDocument', 'VideoPage', 'PersonPage', 'NotePage', 'Problem']) assert.ok((checked.get(schema) ?? 0) > 0, schema);
    assert.deepEqual(ctx.stack.contract.rest.violations, []);
  });

  it('tool results and tool errors of the same stack are checked too', async () => {
    const call = (name: string, args: object) =>
      ctx.stack.app.mcp.inject({
        method: 'POST', url: '/',
        headers: { host: 'mcp.reelay.test', authorization: `Bearer ${ctx.stack.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      });
    assert.equal((await call('platform_get_user', { username: ctx.m.users.public, projection_preset: 'minimal' })).statusCode, 200);
    assert.equal((await call('platform_get_user', { username: 'no.such.user.zz9' })).statusCode, 200);
    const checked = ctx.stack.contract.mcp.checked;
    assert.ok((checked.get('PersonDocument') ?? 0) > 0 && (checked.get('ToolError') ?? 0) > 0, JSON.stringify([...checked]));
    assert.deepEqual(ctx.stack.contract.mcp.violations, []);
  });

  it('a malformed REST answer is a violation: count as a string, a misspelt member, a stray envelope member', () => {
    const page = golden('user-videos');
    const answer = (data: unknown, extra = {}) =>
      checkRestAnswer({ method: 'GET', url: '/v1/platform/users/x/videos', status: 200, contentType: json, body: JSON.stringify({ data, ...extra }) });
    assert.equal(answer(page)?.violation, undefined);
    page.orderedItems[0].likeCount = '12';
    assert.match(answer(page)?.violation ?? '', /data is not a VideoPage \(full\).*orderedItems\.0\.likeCount/);
    const misspelt = golden('user-videos');
    misspelt.orderedItems[0].likeCuont = 12;
    assert.match(answer(misspelt)?.violation ?? '', /likeCuont/);
    assert.match(answer(golden('user-videos'), { meta: 1 })?.violation ?? '', /envelope/);
    const problem = checkRestAnswer({
      method: 'GET', url: '/v1/platform/users/x', status: 404, contentType: 'application/problem+json',
      body: JSON.stringify({ type: 'http://r.test/docs#error-not_found', title: 'Not found', status: 404, detail: 'x', instance: '/x', code: 'lost' }),
    });
    assert.match(problem?.violation ?? '', /not a Problem.*code/);
  });

  it('a malformed tool result is a violation, checked in the preset the call asked for', () => {
    const call = (args: object) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'platform_get_user', arguments: { username: 'x', ...args } } });
    const result = (structuredContent: unknown, isError = false) =>
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent, ...(isError ? { isError } : {}) } });
    const person = golden('user-detail');
    assert.equal(checkToolAnswer(call({ projection_preset: 'full' }), 200, result(person))?.violation, undefined);
    // The full answer keeps `url`, which minimal drops: as a minimal answer it is malformed.
    assert.match(checkToolAnswer(call({ projection_preset: 'minimal' }), 200, result(person))?.violation ?? '', /PersonDocument \(minimal\)/);
    assert.equal(checkToolAnswer(call({}), 200, result({ code: 'not_found', message: 'gone' }, true))?.violation, undefined);
    assert.match(checkToolAnswer(call({}), 200, result({ code: 'not_found' }, true))?.violation ?? '', /not a tool error.*message/);
  });

  it('watch answers on REST and MCP are checked against the watch schemas the document publishes', async () => {
    const send = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) =>
      ctx.stack.app.rest.inject({ method, url, headers: { authorization: `Bearer ${ctx.stack.key}`, ...headers }, ...(payload ? { payload } : {}) });
    const created = await send('POST', '/v1/watches', { kind: 'video', target: ctx.m.videos.pinned, every: '1m' });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().data.id as string;
    assert.equal((await send('GET', '/v1/watches')).statusCode, 200);
    assert.equal((await send('PATCH', `/v1/watches/${id}`, { status: 'paused' })).statusCode, 200);
    assert.equal((await send('GET', `/v1/watches/${id}/history`)).statusCode, 200);
    assert.equal((await send('GET', `/v1/watches/${id}/history?format=csv`)).statusCode, 200);
    assert.equal((await send('GET', `/v1/watches/${id}/deliveries`)).statusCode, 200);
    assert.equal((await send('GET', `/v1/watches/${id}/history?limit=0`)).statusCode, 400);
    const tool = (name: string, args: object) =>
      ctx.stack.app.mcp.inject({
        method: 'POST', url: '/',
        headers: { host: 'mcp.reelay.test', authorization: `Bearer ${ctx.stack.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      });
    await tool('watch_get', { id });
    await tool('watch_history', { id });
    await tool('watch_get', { id: 'wch_none' });
    assert.equal((await send('DELETE', `/v1/watches/${id}`)).statusCode, 204);
    const rest = ctx.stack.contract.rest.checked;
    for (const schema of ['WatchWithSecretResponse', 'WatchListResponse', 'WatchUpdatedResponse', 'WatchHistoryResponse', 'DeliveryListResponse', 'GET /v1/watches/{id}/history text/csv', 'Problem']) {
      assert.ok((rest.get(schema) ?? 0) > 0, `${schema}: ${JSON.stringify([...rest])}`);
    }
    const mcp = ctx.stack.contract.mcp.checked;
    for (const schema of ['WatchResponse', 'WatchHistoryResponse', 'ToolError']) assert.ok((mcp.get(schema) ?? 0) > 0, `${schema}: ${JSON.stringify([...mcp])}`);
    assert.deepEqual(ctx.stack.contract.rest.violations, []);
    assert.deepEqual(ctx.stack.contract.mcp.violations, []);
  });

  it('a malformed watch answer is a violation: a shown secret, an undeclared status, media type or problem, a bare tool answer', () => {
    const watch = {
      id: 'wch_abc', kind: 'video', target: '123', every: '1m', events: ['video.published'], webhook: { url: 'https://example.com/h' }, status: 'active',
      pausedReason: null, failures: 0, lastError: null, lastRunAt: null, nextRunAt: '2026-01-01T00:00:00.000Z', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
    };
    const rest = (method: string, url: string, status: number, body: unknown, contentType = json) =>
      checkRestAnswer({ method, url, status, contentType, body: typeof body === 'string' ? body : JSON.stringify(body) })?.violation;
    assert.equal(rest('GET', '/v1/watches/wch_abc', 200, { data: watch }), undefined);
    assert.match(rest('GET', '/v1/watches/wch_abc', 200, { data: { ...watch, webhook: { url: watch.webhook.url, secret: 'whsec_x' } } }) ?? '', /not a WatchResponse.*secret/);
    assert.match(rest('GET', '/v1/watches/wch_abc', 200, { data: { ...watch, failures: '0' } }) ?? '', /failures/);
    assert.match(rest('DELETE', '/v1/watches/wch_abc', 200, { data: watch }) ?? '', /does not declare status 200/);
    assert.match(rest('GET', '/v1/watches/wch_abc/history', 200, '<html></html>', 'text/html') ?? '', /does not declare text\/html/);
    const problem = { type: 'http://r.test/docs#error-no_transcript', title: 'No transcript', status: 404, detail: 'x', instance: '/x', code: 'no_transcript', requestId: 'r' };
    assert.match(rest('GET', '/v1/watches/wch_abc', 404, problem, 'application/problem+json') ?? '', /does not declare no_transcript under 404/);
    assert.equal(rest('GET', '/v1/watches/wch_abc', 404, { ...problem, type: 'http://r.test/docs#error-not_found', title: 'Not found', code: 'not_found' }, 'application/problem+json'), undefined);
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'watch_get', arguments: { id: 'wch_abc' } } };
    const result = (structuredContent: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [], structuredContent } });
    assert.equal(checkToolAnswer(call, 200, result({ data: watch }))?.violation, undefined);
    assert.match(checkToolAnswer(call, 200, result(watch))?.violation ?? '', /structuredContent is not a WatchResponse/);
  });

  it('an app that sends a malformed answer has it replaced by a 500 naming the violation, and the file fails', async () => {
    const app = Fastify();
    const contract = enforceContract(app, 'rest');
    app.get('/v1/platform/users/:username', async (_request, reply) => reply.type(json).send(JSON.stringify({ data: { type: 'Person' } })));
    const res = await app.inject('/v1/platform/users/alice');
    await app.close();
    assert.equal(res.statusCode, 500);
    assert.match(res.json().contractViolation, /data is not a PersonDocument/);
    assert.equal(contract.violations.length, 1);
    assert.throws(() => contract.assertKept(), /answers broke the contract/);
  });
});
