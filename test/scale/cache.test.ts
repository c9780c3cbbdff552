// The response cache through the real REST service, proven with the emulator's request counters and
// fault injection: coalescing, paging reuse, stale-if-error, 304s and a byte-bounded memory cache.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startScaleStack, type ScaleStack } from './harness.ts';

const ITEM_DETAIL = '/api/item/detail/';
const USER_DETAIL = '/api/user/detail/';
const POSTS = '/api/post/item_list/';

describe('one service with the embedded cache', () => {
  let stack: ScaleStack;
  let m: any;
  before(async () => {
    stack = await startScaleStack();
    m = stack.emulator.manifest;
  });
  after(() => stack.close());

  it('50 simultaneous identical cold requests cost exactly one platform request', async () => {
    // Latency on the platform keeps every request in flight while the first one is loading.
    stack.emulator.setFaults({ rules: [{ path: ITEM_DETAIL, probability: 1, kind: 'latency', latencyMs: 150 }] });
    const path = `/v1/platform/videos/${m.videos.withReplies.id}`;
    const before = stack.count(ITEM_DETAIL);
    try {
      const answers = await Promise.all(Array.from({ length: 50 }, () => stack.get(path)));
      assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));
      assert.equal(new Set(answers.map((a) => a.body)).size, 1, 'every caller gets the same bytes');
    } finally {
      stack.emulator.setFaults({ rules: [] });
    }
    assert.equal(stack.count(ITEM_DETAIL) - before, 1);
  });

  it('requests differing only in username case and @ share one platform request', async () => {
    const name: string = m.users.public;
    const spellings = [name, name.toUpperCase(), `@${name}`, `@${name.toUpperCase()}`];
    const before = stack.count(USER_DETAIL);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => stack.get(`/v1/platform/users/${spellings[i % 4]}`)));
    assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));
    assert.equal(new Set(answers.map((a) => a.headers['etag'])).size, 1);
    assert.equal(stack.count(USER_DETAIL) - before, 1);
  });

  it('reading a 35-video platform page 5 items at a time costs one post-list request', async () => {
    const before = stack.count(POSTS);
    const ids: string[] = [];
    let url: string | undefined = `/v1/platform/users/${m.users.manyVideos}/videos?count=5`;
    for (let page = 0; page < 7 && url !== undefined; page++) {
      const answer = await stack.get(url);
      assert.equal(answer.status, 200, answer.body);
      ids.push(...answer.json.data.orderedItems.map((item: any) => item.id));
      url = answer.json.data.next === undefined ? undefined : new URL(answer.json.data.next).pathname + new URL(answer.json.data.next).search;
    }
    assert.equal(ids.length, 35);
    assert.equal(new Set(ids).size, 35, 'no item twice');
    assert.equal(stack.count(POSTS) - before, 1);
  });

  it('a matching If-None-Match gets 304 with no body and no platform request', async () => {
    const path = `/v1/platform/videos/${m.videos.pinned}`;
    const first = await stack.get(path);
    assert.equal(first.status, 200);
    const before = stack.count(ITEM_DETAIL);
    const conditional = await stack.get(path, { 'if-none-match': String(first.headers['etag']) });
    assert.equal(conditional.status, 304);
    assert.equal(conditional.body, '');
    assert.equal(conditional.headers['etag'], first.headers['etag']);
    const other = await stack.get(path, { 'if-none-match': '"something-else"' });
    assert.equal(other.status, 200, 'a different validator gets the full answer');
    assert.equal(stack.count(ITEM_DETAIL), before);
  });

  it('past freshness, a platform outage is answered 200 from the stale entry, marked stale', async () => {
    const path = `/v1/platform/videos/${m.videos.withTranscripts.id}`;
    const fresh = await stack.get(path);
    assert.equal(fresh.status, 200);
    // Video answers are fresh 5 min and revalidated in the background 5 min more: step past both.
    stack.advanceCacheClock(11 * 60_000);
    // Every platform path fails: the video page, the client's fallback, too.
    stack.emulator.setFaults({ rules: [{ path: '*', probability: 1, kind: 'status_5xx', status: 503 }] });
    const before = stack.count(ITEM_DETAIL);
    let stale;
    try {
      stale = await stack.get(path);
    } finally {
      stack.emulator.setFaults({ rules: [] });
    }
    assert.ok(stack.count(ITEM_DETAIL) > before, 'the platform was asked and failed');
    assert.equal(stale.status, 200, stale.body);
    assert.equal(stale.headers['cache-status'], 'reelay; hit; fwd=stale');
    assert.equal(stale.body, fresh.body, 'the stored bytes are served');
    assert.ok(Number(stale.headers['age']) >= 11 * 60, `age ${stale.headers['age']}`);
    // The outage answer was not stored as fresh: with the platform back, the next one is loaded anew.
    const recovered = await stack.get(path);
    assert.equal(recovered.status, 200);
    assert.match(String(recovered.headers['cache-status']), /fwd=uri-miss/);
  });

  it('during an outage, a page never asked before is built from stale platform pages and marked stale', async () => {
    const path = `/v1/platform/users/${m.users.public}/videos`;
    const filled = await stack.get(`${path}?count=5`);
    assert.equal(filled.status, 200);
    stack.advanceCacheClock(11 * 60_000);
    stack.emulator.setFaults({ rules: [{ path: '*', probability: 1, kind: 'status_5xx', status: 503 }] });
    let other;
    try {
      other = await stack.get(`${path}?count=7`);
    } finally {
      stack.emulator.setFaults({ rules: [] });
    }
    assert.equal(other.status, 200, other.body);
    assert.equal(other.headers['cache-status'], 'reelay; hit; fwd=stale');
    assert.deepEqual(
      other.json.data.orderedItems.slice(0, 5).map((v: any) => v.id),
      filled.json.data.orderedItems.map((v: any) => v.id),
    );
    assert.equal(other.json.data.orderedItems.length, 7);
    const recovered = await stack.get(`${path}?count=7`);
    assert.match(String(recovered.headers['cache-status']), /fwd=uri-miss/, 'the outage answer was not stored');
  });
});

describe('the memory cache under many distinct keys', () => {
  const maxBytes = 48 * 1024;
  let stack: ScaleStack;
  before(async () => {
    stack = await startScaleStack({ config: { cacheMaxBytes: String(maxBytes) } });
  });
  after(() => stack.close());

  it('never holds more than its configured bytes and evicts the least recently used', async () => {
    const m: any = stack.emulator.manifest;
    const ids: string[] = [];
    let url: string | undefined = `/v1/platform/users/${m.users.manyVideos}/videos?count=35&projection_preset=minimal`;
    for (let page = 0; page < 3 && url !== undefined; page++) {
      const answer = await stack.get(url);
      assert.equal(answer.status, 200, answer.body);
      ids.push(...answer.json.data.orderedItems.map((item: any) => item.internalId));
      url = answer.json.data.next === undefined ? undefined : new URL(answer.json.data.next).pathname + new URL(answer.json.data.next).search;
    }
    assert.ok(ids.length >= 60, `${ids.length} distinct videos`);
    let peak = 0;
    for (const id of ids) {
      const answer = await stack.get(`/v1/platform/videos/${id}`);
      assert.equal(answer.status, 200, answer.body);
      const size = stack.app.services.cacheSizeBytes() ?? Number.NaN;
      assert.ok(size <= maxBytes, `${size} bytes held, budget ${maxBytes}`);
      peak = Math.max(peak, size);
    }
    assert.ok(peak > maxBytes / 2, `the budget was actually used (peak ${peak})`);
    const before = stack.count(ITEM_DETAIL);
    const first = await stack.get(`/v1/platform/videos/${ids[0]}`);
    assert.match(String(first.headers['cache-status']), /fwd=uri-miss/, 'the oldest entry was evicted');
    assert.equal(stack.count(ITEM_DETAIL) - before, 1);
  });
});
