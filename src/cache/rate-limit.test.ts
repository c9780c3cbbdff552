// In-memory rate limits and the IETF RateLimit header values.
import { afterEach, test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createRateLimiter, rateLimitHeaders } from './rate-limit.ts';

afterEach(() => mock.timers.reset());

test('requests within the limit are allowed and remaining counts down to zero', async () => {
  const limiter = createRateLimiter({ points: 3, durationSeconds: 60 });
  const results = [];
  for (let i = 0; i < 3; i += 1) results.push(await limiter.consume('key-1'));
  assert.deepEqual(results.map((r) => [r.allowed, r.remaining, r.limit]), [[true, 2, 3], [true, 1, 3], [true, 0, 3]]);
  assert.ok(results.every((r) => r.resetSeconds > 0 && r.resetSeconds <= 60));
});

test('a request over the limit is denied without throwing, with the seconds until reset', async () => {
  const limiter = createRateLimiter({ points: 2, durationSeconds: 10 });
  await limiter.consume('k');
  await limiter.consume('k');
  const denied = await limiter.consume('k');
  assert.equal(denied.allowed, false);
  assert.equal(denied.remaining, 0);
  assert.ok(denied.resetSeconds >= 1 && denied.resetSeconds <= 10, `reset ${denied.resetSeconds}`);
});

test('each key has its own budget', async () => {
  const limiter = createRateLimiter({ points: 1, durationSeconds: 60 });
  assert.equal((await limiter.consume('a')).allowed, true);
  assert.equal((await limiter.consume('a')).allowed, false);
  assert.equal((await limiter.consume('b')).allowed, true);
});

test('the budget returns when the window has passed', async () => {
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_700_000_000_000 });
  const limiter = createRateLimiter({ points: 1, durationSeconds: 5 });
  await limiter.consume('k');
  assert.equal((await limiter.consume('k')).allowed, false);
  mock.timers.tick(5_001);
  const again = await limiter.consume('k');
  assert.equal(again.allowed, true);
  assert.equal(again.remaining, 0);
});

test('limits that are not positive whole numbers are refused at creation', () => {
  assert.throws(() => createRateLimiter({ points: 0, durationSeconds: 60 }), RangeError);
  assert.throws(() => createRateLimiter({ points: 10, durationSeconds: 0.5 }), RangeError);
});

test('headers follow the IETF RateLimit and RateLimit-Policy syntax', () => {
  const headers = rateLimitHeaders({ allowed: true, limit: 100, remaining: 42, resetSeconds: 17 }, { windowSeconds: 60 });
  assert.deepEqual(headers, { RateLimit: '"default";r=42;t=17', 'RateLimit-Policy': '"default";q=100;w=60' });
});

test('a policy name is rendered as an escaped Structured Fields string', () => {
  const headers = rateLimitHeaders(
    { allowed: false, limit: 5, remaining: 0, resetSeconds: 3 },
    { windowSeconds: 1, name: 'per "key" \\ tier' },
  );
  assert.equal(headers.RateLimit, '"per \\"key\\" \\\\ tier";r=0;t=3');
  assert.throws(() => rateLimitHeaders({ allowed: true, limit: 1, remaining: 1, resetSeconds: 1 }, {
    windowSeconds: 1,
    name: 'naïve',
  }), RangeError);
});

test('while Redis is known down the node counts alone, without calling Redis', async () => {
  let calls = 0;
  let armed = false;
  // Any use of the client once the limiter exists counts; asking it while "unavailable" fails this test.
  const redis = new Proxy({}, { get: () => (armed ? () => void calls++ : () => undefined) });
  const limiter = createRateLimiter({ redis: redis as never, available: () => false, points: 2, durationSeconds: 60 });
  armed = true;
  const results = [];
  for (let i = 0; i < 3; i++) results.push((await limiter.consume('k')).allowed);
  assert.deepEqual(results, [true, true, false], 'the full limit, enforced by this node');
  assert.equal(calls, 0);
});

test('a Redis failure is reported and the request is counted by this node instead', async () => {
  const failures: unknown[] = [];
  const redis = { status: 'ready', rlflxIncr: undefined, defineCommand() {}, multi: () => { throw new Error('Command timed out'); } };
  const limiter = createRateLimiter({ redis: redis as never, onRedisFailure: (e) => failures.push(e), points: 1, durationSeconds: 60 });
  assert.equal((await limiter.consume('k')).allowed, true);
  assert.equal((await limiter.consume('k')).allowed, false);
  assert.equal(failures.length, 2);
});
