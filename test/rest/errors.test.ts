// Every error code an operation can produce answers RFC 9457 problem+json with its stable code.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../emulator/server.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

let emulator: Emulator;
let stack: Stack;
let m: any;
before(async () => {
  emulator = await startEmulator({ seed: 1 });
  stack = await startStack({ emulatorInstance: emulator });
  m = emulator.manifest;
});
after(async () => {
  await stack.close();
  await emulator.close();
});

function assertProblem(res: { status: number; headers: Record<string, unknown>; json: any; body: string }, status: number, code: string) {
  assert.equal(res.status, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  assert.equal(res.json.code, code);
  assert.equal(res.json.status, status);
  for (const member of ['type', 'title', 'detail', 'instance', 'requestId']) assert.equal(typeof res.json[member], 'string', member);
  assert.equal(res.headers['x-request-id'], res.json.requestId);
  assert.doesNotMatch(res.body, /at .*\.ts:\d+/, 'no stack trace');
}

describe('400 invalid_request and invalid_cursor', () => {
  const bad = () => [
    `/v1/platform/users/${m.users.public}/videos?count=0`,
    `/v1/platform/users/${m.users.public}/videos?count=36`,
    `/v1/platform/users/${m.users.public}/videos?count=-3`,
    `/v1/platform/users/${m.users.public}/videos?count=2.5`,
    `/v1/platform/users/${m.users.public}/videos?count=ten`,
    `/v1/platform/users/${m.users.public}/videos?order=random`,
    `/v1/platform/users/${m.users.public}/reposts?count=31`,
    `/v1/platform/users/${m.users.public}/likes?count=36`,
    `/v1/platform/videos/${m.videos.withReplies.id}/comments?count=51`,
    `/v1/platform/users/${m.users.public}/followers?count=31`,
    `/v1/platform/tags/${m.tags.popular}?count=31`,
    `/v1/platform/users/${m.users.public}/videos?colour=blue`,
    `/v1/platform/users/bad%20name`,
    `/v1/platform/users/${'a'.repeat(25)}`,
    `/v1/platform/videos/12ab`,
    `/v1/platform/videos/${m.videos.withTranscripts.id}/transcripts/en`,
    `/v1/platform/videos/${m.videos.withTranscripts.id}/transcripts/en-GB`,
  ];
  it('out-of-range, unknown or malformed parameters are refused, never clamped', async () => {
    for (const path of bad()) {
      const res = await stack.get(path);
      assertProblem(res, 400, 'invalid_request');
      assert.ok(Array.isArray(res.json.params) && res.json.params.length > 0, `${path} names the offending parameter`);
    }
  });

  it('forged, truncated and foreign cursors are invalid_cursor', async () => {
    const first = await stack.get(`/v1/platform/users/${m.users.public}/videos?count=2`);
    const cursor: string = first.json.data.nextCursor;
    const forged = Buffer.from(JSON.stringify({ k: 'videos:newest', p: '1', o: -1, n: 0 })).toString('base64url');
    for (const c of [cursor.slice(0, -3), 'not-a-cursor!', forged, 'eyJ9']) {
      assertProblem(await stack.get(`/v1/platform/users/${m.users.public}/videos?cursor=${encodeURIComponent(c)}`), 400, 'invalid_cursor');
    }
    assertProblem(await stack.get(`/v1/platform/users/${m.users.public}/likes?cursor=${cursor}`), 400, 'invalid_cursor');
  });

  it('a cursor is sealed to its operation, subject and order: forged, altered or foreign ones never reach the platform', async () => {
    const first = await stack.get(`/v1/platform/users/${m.users.public}/videos?count=2`);
    const cursor: string = first.json.data.nextCursor;
    const [payload, keyId, tag] = cursor.split('.');
    assert.ok(payload && keyId && tag, `a sealed cursor has three parts: ${cursor}`);
    // A counter inflated (totalItems) and a platform cursor chosen by the caller, under the old tag.
    const state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const inflated = Buffer.from(JSON.stringify({ ...state, n: 9_000_000, p: '999' })).toString('base64url');
    const platformRequests = () => Object.values(emulator.stats()).reduce((n, v) => n + v, 0);
    const before = platformRequests();
    const attempts = [
      `/v1/platform/users/${m.users.public}/videos?cursor=${inflated}.${keyId}.${tag}`,
      `/v1/platform/users/${m.users.public}/videos?cursor=${payload}.${keyId}.${'A'.repeat(tag.length)}`,
      `/v1/platform/users/${m.users.public}/videos?cursor=${payload}.${Number(keyId) + 1}.${tag}`,
      `/v1/platform/users/${m.users.manyVideos}/videos?cursor=${cursor}`,
      `/v1/platform/users/${m.users.public}/videos?order=popular&cursor=${cursor}`,
      `/v1/platform/users/${m.users.public}/reposts?cursor=${cursor}`,
    ];
    for (const path of attempts) assertProblem(await stack.get(path), 400, 'invalid_cursor');
    assert.equal(platformRequests(), before, 'no platform request for any of them');
    const next = await stack.get(`/v1/platform/users/${m.users.public}/videos?count=2&cursor=${cursor}`);
    assert.equal(next.status, 200, 'the genuine cursor still pages');
  });
});

describe('401 unauthorized', () => {
  it('a missing, malformed, unknown or revoked key is refused with a Bearer challenge', async () => {
    const path = `/v1/platform/users/${m.users.public}`;
    const none = await stack.app.rest.inject({ method: 'GET', url: path });
    assert.equal(none.statusCode, 401);
    assert.match(String(none.headers['www-authenticate']), /^Bearer/);
    assert.equal(JSON.parse(none.body).code, 'unauthorized');
    for (const header of ['Bearer', 'Basic abc', 'Bearer rly_unknown', `Bearer ${stack.key}x`]) {
      const res = await stack.app.rest.inject({ method: 'GET', url: path, headers: { authorization: header } });
      assert.equal(res.statusCode, 401, header);
      assert.match(String(res.headers['www-authenticate']), /^Bearer/);
    }
    const { key, record } = await stack.app.services.keys.create({ name: 'to-revoke' });
    const ok = await stack.app.rest.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${key}` } });
    assert.equal(ok.statusCode, 200);
    await stack.app.services.keys.revoke(record.id);
    const revoked = await stack.app.rest.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${key}` } });
    assert.equal(revoked.statusCode, 401, 'a revoked key fails at once');
  });
});

describe('403 and 404 from the platform', () => {
  it('classifies unknown users, deleted videos, private accounts, hidden likes, not live and missing transcripts', async () => {
    assertProblem(await stack.get('/v1/platform/users/no.such.user.zz9'), 404, 'not_found');
    assertProblem(await stack.get('/v1/platform/users/no.such.user.zz9/videos'), 404, 'not_found');
    assertProblem(await stack.get(`/v1/platform/videos/${m.videos.deleted}`), 404, 'not_found');
    assertProblem(await stack.get(`/v1/platform/videos/${m.videos.deleted}/comments`), 404, 'not_found');
    assertProblem(await stack.get(`/v1/platform/users/${m.users.private}/videos`), 403, 'private_account');
    assertProblem(await stack.get(`/v1/platform/users/${m.users.hiddenLikes}/likes`), 403, 'private_content');
    assertProblem(await stack.get(`/v1/platform/users/${m.users.hiddenFollowers}/followers`), 403, 'private_content');
    assertProblem(await stack.get(`/v1/platform/videos/${m.videos.geoBlocked}`), 403, 'geo_blocked');
    assertProblem(await stack.get(`/v1/platform/users/${m.users.notLive}/live`), 404, 'not_live');
    const missing = await stack.get(`/v1/platform/videos/${m.videos.withTranscripts.id}/transcripts/ceb-PH`);
    assertProblem(missing, 404, 'no_transcript');
    assert.deepEqual([...missing.json.languages].sort(), [...m.videos.withTranscripts.languages].sort());
  });
});

describe('429 rate_limited', () => {
  it('a key over its per-minute budget gets 429 with Retry-After and RateLimit headers', async () => {
    const limited = await startStack({ emulatorInstance: emulator, config: { rateLimitPerMinute: '2' } });
    try {
      const path = `/v1/platform/users/${m.users.public}`;
      const first = await limited.get(path);
      assert.equal(first.status, 200);
      assert.match(String(first.headers['ratelimit']), /r=1/);
      assert.match(String(first.headers['ratelimit-policy']), /q=2;w=60/);
      await limited.get(path);
      const third = await limited.get(path);
      assertProblem(third, 429, 'rate_limited');
      assert.ok(Number(third.headers['retry-after']) >= 1);
    } finally {
      await limited.close();
    }
  });
});

describe('502, 503 and 504 from platform failures', () => {
  const faulty = async (kind: string, extra: Record<string, unknown> = {}, config = { requestTimeoutMs: '500', requestDeadlineMs: '2500' }) => {
    // The profile page is the client's fallback for the profile API, so both fail.
    const rules = ['/api/user/detail/', '/@*'].map((path) => ({ path, probability: 1, kind, ...extra }));
    emulator.setFaults({ rules } as any);
    const s = await startStack({ emulatorInstance: emulator, config });
    try {
      return await s.get(`/v1/platform/users/${m.users.notLive}`);
    } finally {
      emulator.setFaults({ rules: [] });
      await s.close();
    }
  };
  it('platform 5xx after retries is upstream_error', async () => {
    assertProblem(await faulty('status_5xx', { status: 500 }), 502, 'upstream_error');
  });
  it('a platform that rejects every identity is upstream_blocked with Retry-After', async () => {
    const res = await faulty('empty_200');
    assertProblem(res, 503, 'upstream_blocked');
    assert.ok(Number(res.headers['retry-after']) >= 1);
  });
  it('a platform slower than the deadline is upstream_timeout', async () => {
    // The API deadline (1.5 s) ends the request while the first platform attempt (3 s bound) still waits.
    assertProblem(await faulty('latency', { latencyMs: 4000 }, { requestTimeoutMs: '3000', requestDeadlineMs: '1500' }), 504, 'upstream_timeout');
  });
});
