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
