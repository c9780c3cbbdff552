// What an operator sees of requests, against the emulator: every log line a REST or MCP request
// causes (platform calls included) carries its request id, client errors are logged at info, and
// /metrics shows cache hits and misses, coalescing, routes, identities and breakers as they move.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useStack } from '../helpers/stack.ts';

const ctx = useStack({ config: { logLevel: 'debug' } });

type Line = { level: number; msg: string; requestId?: string; [key: string]: unknown };

/** The log lines written while `fn` ran, parsed, each with the count of `"requestId"` keys in its text. */
async function logsOf(fn: () => Promise<unknown>): Promise<Array<Line & { idKeys: number }>> {
  const from = ctx.stack.logs.length;
  await fn();
  return ctx.stack.logs.slice(from).map((text) => ({ ...(JSON.parse(text) as Line), idKeys: text.split('"requestId"').length - 1 }));
}

function assertAllCarry(lines: Array<Line & { idKeys: number }>, requestId: string): void {
  assert.ok(lines.length > 0, 'the request logged something');
  for (const line of lines) {
    assert.equal(line.requestId, requestId, `"${line.msg}" carries the request id`);
    assert.equal(line.idKeys, 1, `"${line.msg}" names it once`);
  }
}

/** The value of one series of the /metrics text, 0 when absent. */
async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = (await ctx.stack.app.rest.inject('/metrics')).body;
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => have[key] === value)) total += Number(match[3]);
  }
  return total;
}

let videos: string[] = [];
let next = 0;
const freshVideo = () => videos[next++];

/** Video ids nothing has read yet, taken from one list read before the tests. */
async function readVideoIds(): Promise<void> {
  if (videos.length > 0) return;
  const page = await ctx.stack.get(`/v1/platform/users/${ctx.m.users.manyVideos}/videos?count=35&projection_preset=minimal`);
  assert.equal(page.status, 200, page.body);
  videos = page.json.data.orderedItems.map((item: { internalId: string }) => item.internalId);
  assert.ok(videos.length >= 12, 'enough videos for the tests below');
}

describe('request ids in the logs', () => {
  before(readVideoIds);
  it('every log line of one REST request, platform calls included, carries its id', async () => {
    const id = 'obs-rest-00000001';
    const lines = await logsOf(async () => {
      const res = await ctx.stack.get(`/v1/platform/users/${ctx.m.users.public}/videos?count=3`, { 'x-request-id': id });
      assert.equal(res.status, 200, res.body);
    });
    assertAllCarry(lines, id);
    const platform = lines.filter((line) => line.msg === 'platform request');
    assert.ok(platform.some((line) => line.endpoint === '/api/user/detail/'), 'the profile read is logged');
    assert.ok(platform.some((line) => line.endpoint === '/api/post/item_list/'), 'the list read is logged');
    assert.equal(lines.filter((line) => line.msg === 'request completed').length, 1);
  });

  it('a platform answer that is the client\'s to fix is logged at info, a platform failure at warn, both with the id', async () => {
    const missing = await logsOf(async () => {
      const res = await ctx.stack.get('/v1/platform/users/no.such.user.0001', { 'x-request-id': 'obs-4xx-00000001' });
      assert.equal(res.status, 404);
    });
    assertAllCarry(missing, 'obs-4xx-00000001');
    assert.ok(missing.some((line) => line.msg === 'platform request answered with a client error' && line.level === 30 && line.outcome === 'not_found'));
    assert.deepEqual(missing.filter((line) => line.level >= 40), [], 'nothing at warn or above for a 404');

    ctx.stack.emulator.setFaults({ rules: [{ path: '/api/comment/list/reply/', probability: 1, kind: 'status_5xx', status: 500 }] });
    try {
      const failing = await logsOf(async () => {
        const { id, commentId } = ctx.m.videos.withReplies;
        const res = await ctx.stack.get(`/v1/platform/videos/${id}/comments/${commentId}/replies`, { 'x-request-id': 'obs-5xx-00000001' });
        assert.equal(res.status, 502, res.body);
      });
      assertAllCarry(failing, 'obs-5xx-00000001');
      assert.ok(failing.some((line) => line.msg === 'platform request failed' && line.level === 40 && line.endpoint === '/api/comment/list/reply/'));
    } finally {
      ctx.stack.emulator.setFaults({ rules: [] });
    }
  });

  it('every log line of one MCP tool call, platform calls included, carries its id, which it answers', async () => {
    const id = 'obs-mcp-00000001';
    let header: unknown;
    const lines = await logsOf(async () => {
      const res = await ctx.stack.app.mcp.inject({
        method: 'POST',
        url: '/',
        headers: {
          host: 'mcp.reelay.test',
          authorization: `Bearer ${ctx.stack.key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-request-id': id,
        },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'platform_get_video', arguments: { videoId: freshVideo() } } }),
      });
      assert.equal(res.statusCode, 200);
      assert.notEqual(JSON.parse(res.body).result.isError, true, 'the tool call succeeded');
      header = res.headers['x-request-id'];
    });
    assert.equal(header, id);
    assertAllCarry(lines, id);
    assert.ok(lines.some((line) => line.msg === 'platform request' && line.endpoint === '/api/item/detail/'));
  });

  it('a request that joins another\'s platform fetch names it, and the fetch logs the id of the one that started it', async () => {
    const path = `/v1/platform/videos/${freshVideo()}`;
    const coalescedBefore = await metric('reelay_coalesced_requests_total', { layer: 'answer', scope: 'process' });
    // Platform latency keeps the first request's fetch in flight while the second arrives.
    ctx.stack.emulator.setFaults({ rules: [{ path: '/api/item/detail/', probability: 1, kind: 'latency', latencyMs: 1500 }] });
    const ids = ['obs-coal-A0000001', 'obs-coal-B0000001'];
    let lines: Array<Line & { idKeys: number }>;
    try {
      lines = await logsOf(async () => {
        const answers = await Promise.all(ids.map((id) => ctx.stack.get(path, { 'x-request-id': id })));
        assert.deepEqual(answers.map((a) => a.status), [200, 200]);
        assert.equal(answers[0].body, answers[1].body);
      });
    } finally {
      ctx.stack.emulator.setFaults({ rules: [] });
    }
    const completed = lines.filter((line) => line.msg === 'request completed');
    assert.equal(completed.length, 2);
    const joined = completed.filter((line) => line.coalescedWith !== undefined);
    assert.equal(joined.length, 1, 'exactly one request joined the other');
    const starter = joined[0].coalescedWith as string;
    assert.deepEqual([joined[0].requestId, starter].sort(), ids, 'it names the other request');
    const fetches = lines.filter((line) => line.msg === 'platform request' && line.endpoint === '/api/item/detail/');
    assert.equal(fetches.length, 1, 'one platform request for both');
    assert.equal(fetches[0].requestId, starter, 'the shared fetch carries the id of the request that started it');
    for (const line of lines) assert.ok(line.requestId !== undefined && ids.includes(line.requestId), `"${line.msg}" carries one of the two ids`);
    assert.equal(await metric('reelay_coalesced_requests_total', { layer: 'answer', scope: 'process' }), coalescedBefore + 1);
  });
});

describe('/metrics', () => {
  before(readVideoIds);
  it('cache hits and misses are counted per layer, and platform requests per route', async () => {
    const path = `/v1/platform/videos/${freshVideo()}`;
    const [hits, misses, platformMisses] = await Promise.all([
      metric('reelay_cache_hits_total', { layer: 'answer' }),
      metric('reelay_cache_misses_total', { layer: 'answer' }),
      metric('reelay_cache_misses_total', { layer: 'platform' }),
    ]);
    assert.equal((await ctx.stack.get(path)).status, 200);
    assert.equal(await metric('reelay_cache_misses_total', { layer: 'answer' }), misses + 1);
    assert.equal(await metric('reelay_cache_hits_total', { layer: 'answer' }), hits);
    assert.equal((await ctx.stack.get(path)).status, 200);
    assert.equal(await metric('reelay_cache_hits_total', { layer: 'answer' }), hits + 1);
    assert.equal(await metric('reelay_cache_misses_total', { layer: 'answer' }), misses + 1);
    assert.ok((await metric('reelay_cache_misses_total', { layer: 'platform' })) >= platformMisses, 'the platform layer has its own series');
    assert.ok((await metric('reelay_upstream_route_requests_total', { route: 'signed', endpoint: '/api/item/detail/', outcome: 'ok' })) >= 1);
  });

  it('a refused signed list moves to the unsigned creator route and retires the refused identities', async () => {
    const [unsigned, retired] = await Promise.all([
      metric('reelay_upstream_route_requests_total', { route: 'unsigned', endpoint: '/api/creator/item_list/#unsigned', outcome: 'ok' }),
      metric('reelay_upstream_identities_retired_total'),
    ]);
    ctx.stack.emulator.setFaults({ rules: [{ path: '/api/post/item_list/', probability: 1, kind: 'refuse_native' }] });
    try {
      // A user whose list nothing has read yet: the signed list is asked, and refused.
      const res = await ctx.stack.get(`/v1/platform/users/${ctx.m.users.notLive}/videos?count=2`);
      assert.equal(res.status, 200, res.body);
    } finally {
      ctx.stack.emulator.setFaults({ rules: [] });
    }
    assert.equal(await metric('reelay_upstream_route_requests_total', { route: 'unsigned', endpoint: '/api/creator/item_list/#unsigned', outcome: 'ok' }), unsigned + 1);
    assert.ok((await metric('reelay_upstream_identities_retired_total')) > retired, 'a refused identity is retired and counted');
  });

  it('a breaker opening shows 1 for its endpoint, and the failing identities show as degraded', async () => {
    const endpoint = '/api/comment/list/';
    assert.equal((await ctx.stack.get(`/v1/platform/videos/${freshVideo()}/comments?count=2`)).status, 200);
    const text = (await ctx.stack.app.rest.inject('/metrics')).body;
    assert.match(text, /^reelay_upstream_breaker_state\{endpoint="\/api\/comment\/list\/"\} 0$/m, 'closed while it answers');
    assert.ok((await metric('reelay_upstream_identities', { state: 'healthy' })) >= 1);
    assert.equal(await metric('reelay_upstream_identities', { state: 'degraded' }), 0);

    ctx.stack.emulator.setFaults({ rules: [{ path: endpoint, probability: 1, kind: 'status_5xx', status: 503 }] });
    try {
      // Four calls of three attempts each: more consecutive failures than the breaker's threshold (10).
      const answers = await Promise.all(Array.from({ length: 4 }, () => ctx.stack.get(`/v1/platform/videos/${freshVideo()}/comments?count=2`)));
      for (const answer of answers) assert.ok(answer.status === 502 || answer.status === 503, answer.body);
    } finally {
      ctx.stack.emulator.setFaults({ rules: [] });
    }
    assert.equal(await metric('reelay_upstream_breaker_state', { endpoint }), 1);
    assert.ok((await metric('reelay_upstream_identities', { state: 'degraded' })) >= 1);
    const after = (await ctx.stack.get(`/v1/platform/videos/${freshVideo()}/comments?count=2`));
    assert.equal(after.status, 503, 'the open breaker refuses at once');
    assert.equal(after.json.code, 'upstream_blocked');
  });
});

describe('secrets at debug level', () => {
  it('with every line a request causes logged, no API key, cookie or token value appears', () => {
    const logs = ctx.stack.logs.join('');
    assert.ok(logs.includes('"platform request"'), 'debug lines were written');
    assert.ok(!logs.includes(ctx.stack.key), 'the API key is not logged');
    assert.doesNotMatch(logs, /tt_chain_token=|msToken=|ttwid=|X-Bogus=|X-Gnarly=/);
  });
});
