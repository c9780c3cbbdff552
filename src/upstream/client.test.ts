// The client's policies with a scripted fake platform (no network): retries, rotation, fallbacks,
// breaker, repeated pages, outcome reporting, and that secrets never reach the logger.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../errors.ts';
import { createPlatformClient } from './client.ts';
import { resolveUpstreamConfig } from './config.ts';
import type { HttpSession, SessionFactory } from './http-session.ts';
import type { OutcomeEvent } from './request.ts';

type Reply = { status?: number; body: string; headers?: Record<string, string> };
type Handler = (url: URL, sessionNo: number) => Reply | Promise<Reply>;

function fakePlatform(handler: Handler): { factory: SessionFactory; seen: Array<{ url: URL; sessionNo: number }> } {
  const seen: Array<{ url: URL; sessionNo: number }> = [];
  let sessions = 0;
  const factory: SessionFactory = async ({ browser }) => {
    const sessionNo = (sessions += 1);
    const cookies = new Map<string, string>([['tt_chain_token', `chain-${sessionNo}`], ['msToken', `ms-${sessionNo}`]]);
    let visits = 0;
    const session: HttpSession = {
      browser,
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0.0.0',
      async fetch(href, init) {
        const url = new URL(href);
        if (url.pathname === '/') {
          // The home page hands out a fresh msToken on every visit, as the platform's does.
          cookies.set('msToken', `ms-${sessionNo}${visits++ === 0 ? '' : `-r${visits - 1}`}`);
          return { status: 200, headers: new Headers(), url: href, text: async () => '<html></html>' };
        }
        seen.push({ url, sessionNo });
        if (init?.signal?.aborted) throw new DOMException('aborted', 'AbortError');
        const reply = await handler(url, sessionNo);
        return { status: reply.status ?? 200, headers: new Headers(reply.headers), url: href, text: async () => reply.body };
      },
      async getCookie(name) {
        return cookies.get(name);
      },
      async setCookie(name, value) {
        cookies.set(name, value);
      },
    };
    return session;
  };
  return { factory, seen };
}

const user = { id: '1', uniqueId: 'alice', secUid: 'SEC1', roomId: '' };
const userDetail = JSON.stringify({ statusCode: 0, status_code: 0, userInfo: { user, stats: { followerCount: 5 } } });
const item = (id: string) => ({ id, createTime: 1700000000, author: user });

function makeClient(handler: Handler, overrides: Parameters<typeof resolveUpstreamConfig>[0] = {}) {
  const platform = fakePlatform(handler);
  const outcomes: OutcomeEvent[] = [];
  const logs: string[] = [];
  const client = createPlatformClient({
    config: resolveUpstreamConfig({
      webOrigin: 'http://127.0.0.1:1',
      webcastOrigin: 'http://127.0.0.1:2',
      identityCount: 2,
      identityRatePerSecond: 1_000,
      retryBaseDelayMs: 1,
      retryMaxDelayMs: 5,
      requestTimeoutMs: 500,
      ...overrides,
    }),
    createSession: platform.factory,
    onOutcome: (e) => outcomes.push(e),
    logger: { warn: (obj, msg) => logs.push(JSON.stringify(obj) + msg), debug: (obj, msg) => logs.push(JSON.stringify(obj) + msg) },
  });
  return { client, seen: platform.seen, outcomes, logs };
}

test('a user is fetched with the identity\'s chain token, signed and with msToken', async () => {
  const { client, seen, outcomes } = makeClient(() => ({ body: userDetail }));
  const result = await client.getUser('alice');
  assert.equal(result.data.user.uniqueId, 'alice');
  assert.match(result.chainToken ?? '', /^chain-\d$/);
  const url = seen[0].url;
  assert.equal(url.pathname, '/api/user/detail/');
  assert.equal(url.searchParams.get('uniqueId'), 'alice');
  assert.match(url.searchParams.get('msToken') ?? '', /^ms-\d$/);
  assert.deepEqual([...url.searchParams.keys()].slice(-3), ['msToken', 'X-Bogus', 'X-Gnarly']);
  assert.equal(url.searchParams.get('X-Bogus'), '1');
  assert.deepEqual(outcomes.map((o) => [o.endpoint, o.outcome]), [['/api/user/detail/', 'ok']]);
});

test('an empty 200 is tried again once on the same identity with a fresh msToken, and that can succeed', async () => {
  let calls = 0;
  const { client, seen, outcomes } = makeClient(() => ((calls += 1) === 1 ? { body: '', headers: { tt_orcas_res: '1' } } : { body: JSON.stringify({ statusCode: 0, itemList: [item('9')], hasMore: false, cursor: '0' }) }));
  const page = await client.getUserPosts('SEC1', 'newest', { cursor: '0', count: 30 });
  assert.equal(page.data.items[0].id, '9');
  assert.equal(seen[0].sessionNo, seen[1].sessionNo);
  assert.notEqual(seen[0].url.searchParams.get('msToken'), seen[1].url.searchParams.get('msToken'));
  // One refusal is not held against the identity: the request settles once, as ok.
  assert.deepEqual(outcomes.map((o) => o.outcome), ['ok']);
});

test('after two empty 200s on one identity the next attempt uses another identity', async () => {
  let calls = 0;
  const { client, seen, outcomes } = makeClient(() => ((calls += 1) <= 2 ? { body: '', headers: { tt_orcas_res: '1' } } : { body: JSON.stringify({ statusCode: 0, itemList: [item('9')], hasMore: false, cursor: '0' }) }));
  const page = await client.getUserPosts('SEC1', 'newest', { cursor: '0', count: 30 });
  assert.equal(page.data.items[0].id, '9');
  assert.equal(seen[0].sessionNo, seen[1].sessionNo);
  assert.notEqual(seen[1].sessionNo, seen[2].sessionNo);
  assert.deepEqual(outcomes.map((o) => o.outcome), ['blocked', 'ok']);
});

test('a video blocked on the API is read from its page instead', async () => {
  const scope = { statusCode: 0, itemInfo: { itemStruct: item('77') } };
  const html = `<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application/json">${JSON.stringify({ __DEFAULT_SCOPE__: { 'webapp.video-detail': scope } })}</script>`;
  const { client, seen } = makeClient((url) => (url.pathname.startsWith('/api/') ? { body: '' } : { body: html }));
  const video = await client.getVideo('77');
  assert.equal(video.data.id, '77');
  assert.deepEqual(seen.map((s) => s.url.pathname), ['/api/item/detail/', '/api/item/detail/', '/@_/video/77']);
});

test('a 5xx is retried to success; persistent 5xx ends as upstream_error after maxAttempts', async () => {
  let calls = 0;
  const flaky = makeClient(() => ((calls += 1) < 3 ? { status: 503, body: 'x' } : { body: userDetail }));
  assert.equal((await flaky.client.getUser('alice')).data.user.id, '1');
  const broken = makeClient(() => ({ status: 500, body: 'x' }), { maxAttempts: 3 });
  await assert.rejects(broken.client.getUser('alice'), (e: AppError) => e.code === 'upstream_error');
  // getUser has an API and a page path; each of the 3 attempts tries one path (errors do not fall through).
  assert.equal(broken.outcomes.length, 3);
});

test('not-found answers are not retried and map to not_found', async () => {
  const { client, outcomes } = makeClient(() => ({ body: JSON.stringify({ statusCode: 10202, status_code: 10202 }) }));
  await assert.rejects(client.getUser('nobody'), (e: AppError) => e.code === 'not_found' && /does not exist/.test(e.message));
  assert.equal(outcomes.length, 1);
});

test('a 429 with a long Retry-After is handed back instead of waited out', async () => {
  const { client, outcomes } = makeClient(() => ({ status: 429, body: '', headers: { 'retry-after': '120' } }));
  await assert.rejects(client.getComments('5', { cursor: '0', count: 20 }), (e: AppError) => e.code === 'upstream_blocked' && e.retryAfterSeconds === 120);
  assert.equal(outcomes.length, 1);
});

test('the platform sending the same page for a new cursor is treated as a block', async () => {
  const body = JSON.stringify({ status_code: 0, comments: [{ cid: 'c1', aweme_id: '5', text: 't', create_time: 1, user: { uid: 'u', unique_id: 'u' } }], cursor: 1, has_more: 1, total: 5 });
  const { client } = makeClient(() => ({ body }), { maxAttempts: 1 });
  await client.getComments('5', { cursor: '0', count: 1 });
  await client.getComments('5', { cursor: '0', count: 1 });
  await assert.rejects(client.getComments('5', { cursor: '1', count: 1 }), (e: AppError) => e.code === 'upstream_blocked');
});

test('the breaker opens after consecutive failures and then fails fast without calling the platform', async () => {
  const { client, seen } = makeClient(() => ({ status: 502, body: '' }), {
    maxAttempts: 1,
    breaker: { failureThreshold: 2, halfOpenAfterMs: 60_000 },
  });
  const page = { cursor: '0', count: 20 };
  await assert.rejects(client.getComments('5', page), (e: AppError) => e.code === 'upstream_error');
  await assert.rejects(client.getComments('5', page), (e: AppError) => e.code === 'upstream_error');
  await assert.rejects(client.getComments('5', page), (e: AppError) => e.code === 'upstream_blocked' && e.retryAfterSeconds === 60);
  assert.equal(seen.length, 2);
  // Other endpoints have their own breaker.
  await assert.rejects(client.getUser('x'), (e: AppError) => e.code === 'upstream_error');
});

test('a request that exceeds requestTimeoutMs is reported as a timeout', async () => {
  const { client, outcomes } = makeClient(() => new Promise<Reply>(() => {}), { maxAttempts: 1, requestTimeoutMs: 30 });
  await assert.rejects(client.getTag('cats'), (e: AppError) => e.code === 'upstream_timeout');
  assert.deepEqual(outcomes.map((o) => o.outcome), ['timeout']);
});

test('logs name endpoint and outcome but never cookies, tokens or signed URLs', async () => {
  const { client, logs } = makeClient(() => ({ body: '' }), { maxAttempts: 2 });
  await assert.rejects(client.getUserLikes('SEC1', { cursor: '0', count: 30 }));
  assert.ok(logs.some((l) => l.includes('/api/favorite/item_list/') && l.includes('blocked')));
  for (const line of logs) assert.doesNotMatch(line, /ms-\d|chain-\d|X-Bogus|msToken|device_id/);
});
