// Store outages through the real service, staged with TCP relays in front of the shared Redis and
// PostgreSQL (the servers themselves are never touched): with Redis cut the node answers from its
// memory without waiting on Redis, with PostgreSQL cut keys are refused with 503 store_unavailable,
// and both recover by themselves when the relay is restored. Skipped loudly without the servers.
import { after, before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { claimBacking, skipWithoutBacking, type Backing } from './backing.ts';
import { startScaleStack, type Answer, type ScaleStack } from './harness.ts';
import { startTcpRelay, viaRelay, type TcpRelay } from '../helpers/tcp-relay.ts';

/** Far below the 30 s a request used to wait on a dead Redis, far above any healthy answer here. */
const ANSWER_BOUND_MS = 5000;

const claimed = await claimBacking();

if ('unavailable' in claimed) {
  it('store outages degrade instead of stalling', (t) => {
    skipWithoutBacking(t, 'store outage test', claimed.unavailable);
  });
} else {
  describe('store outages', () => {
    const backing: Backing = claimed;
    let redisRelay: TcpRelay;
    let pgRelay: TcpRelay;
    let stack: ScaleStack;
    let videos: string[];
    let next = 0;
    const logs: { level: number; msg: string; [k: string]: unknown }[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    let consoleErrors: ReturnType<typeof mock.method>;

    const logged = (text: string) => logs.filter((line) => line.msg.startsWith(text)).length;
    const freshVideo = () => `/v1/platform/videos/${videos[next++]}`;

    async function timedGet(path: string): Promise<Answer & { ms: number }> {
      const started = performance.now();
      const answer = await stack.get(path);
      return { ...answer, ms: performance.now() - started };
    }

    /** Callers that waited on another holder of a Redis lock, from /metrics. */
    async function clusterJoins(): Promise<number> {
      const text = (await stack.app.rest.inject('/metrics')).body;
      let sum = 0;
      for (const m of text.matchAll(/^reelay_coalesced_requests_total\{[^}]*scope="cluster"[^}]*\} (\S+)$/gm)) sum += Number(m[1]);
      return sum;
    }

    function assertAnswered(answers: (Answer & { ms: number })[]): void {
      for (const answer of answers) {
        assert.equal(answer.status, 200, answer.body);
        assert.ok(answer.ms < ANSWER_BOUND_MS, `an answer took ${Math.round(answer.ms)} ms`);
      }
    }

    /** Resolves on the link's next change to `up` (the test's own timeout bounds the wait). */
    function linkBecomes(up: boolean): Promise<void> {
      const link = stack.app.services.redisLink!;
      if (link.isUp() === up) return Promise.resolve();
      return new Promise((resolve) => link.onChange((now) => now === up && resolve()));
    }

    before(async () => {
      process.on('unhandledRejection', onUnhandled);
      // ioredis prints "[ioredis] Unhandled error event" when a client has no error listener.
      consoleErrors = mock.method(console, 'error', () => {});
      redisRelay = await startTcpRelay({ port: Number(new URL(backing.redisUrl).port || 6379) });
      pgRelay = await startTcpRelay({ port: Number(new URL(backing.databaseUrl).port || 5432) });
      stack = await startScaleStack({
        // No watch scheduler: its Redis probe would add commands to the per-caller counts below
        // (test/watches/redis-outage.test.ts covers watches through the same outages).
        config: { redisUrl: viaRelay(backing.redisUrl, redisRelay), databaseUrl: viaRelay(backing.databaseUrl, pgRelay), logLevel: 'info', watchScheduler: 'off' },
        logs: { write: (line) => void logs.push(JSON.parse(line)) },
      });
      const m: any = stack.emulator.manifest;
      const page = await stack.get(`/v1/platform/users/${m.users.manyVideos}/videos?count=35&projection_preset=minimal`);
      assert.equal(page.status, 200, page.body);
      videos = page.json.data.orderedItems.map((item: any) => String(item.internalId));
    });

    after(async () => {
      process.off('unhandledRejection', onUnhandled);
      mock.timers.reset();
      await stack?.close();
      await redisRelay?.close();
      await pgRelay?.close();
      await backing.release();
    });

    it('with Redis cut, every request is answered from memory and none waits on Redis once it is known down', async () => {
      const cached = freshVideo();
      assert.equal((await stack.get(cached)).status, 200);
      assert.match(String((await stack.get(cached)).headers['cache-status']), /hit/, 'cached in Redis before the cut');

      redisRelay.cut();
      const link = stack.app.services.redisLink!;
      const first = await Promise.all([cached, freshVideo(), freshVideo(), freshVideo()].map(timedGet));
      assertAnswered(first);
      assert.equal(link.isUp(), false, 'the link knows Redis is down');
      const afterFirst = link.stats();

      // Everything after: memory cache, local coalescing, local rate limits, without one Redis call.
      const path = freshVideo();
      const burst = await Promise.all([path, path, path, freshVideo(), freshVideo(), freshVideo(), freshVideo()].map(timedGet));
      assertAnswered(burst);
      const again = await timedGet(path);
      assertAnswered([again]);
      assert.match(String(again.headers['cache-status']), /hit/, 'answered from the memory cache');
      assert.deepEqual(link.stats(), afterFirst, 'no Redis command was tried (or failed) once Redis was known down');
      assert.equal(link.stats().timedOutCommands, 0, 'no request waited for a command timeout');
      assert.equal(link.stats().outages, 1);
      assert.ok(stack.app.services.cacheSizeBytes() > 0, 'the memory cache holds the outage answers');
    });

    it('with Redis cut, /readyz answers 200 degraded and names Redis', async () => {
      const started = performance.now();
      const ready = await stack.app.rest.inject('/readyz');
      assert.ok(performance.now() - started < ANSWER_BOUND_MS);
      assert.equal(ready.statusCode, 200, ready.body);
      assert.deepEqual(ready.json(), { status: 'degraded', database: 'ok', redis: 'down' });
    });

    it('when Redis returns the node finds it by itself, and caches in Redis again', async () => {
      redisRelay.restore();
      await linkBecomes(true);
      assert.deepEqual((await stack.app.rest.inject('/readyz')).json(), { status: 'ready', database: 'ok', redis: 'ok' });
      assert.equal(stack.app.services.cacheSizeBytes(), 0, 'the outage cache is dropped on recovery');
      const path = freshVideo();
      assert.equal((await stack.get(path)).status, 200);
      const hit = await stack.get(path);
      assert.match(String(hit.headers['cache-status']), /hit/);
      assert.equal(stack.app.services.cacheSizeBytes(), 0, 'the hit came from Redis, not from memory');
      const direct = new Redis(backing.redisUrl, { lazyConnect: true });
      try {
        await direct.connect();
        assert.ok((await direct.keys('reelay:cache:*')).length > 0, 'entries are in Redis');
      } finally {
        direct.disconnect();
      }
      assert.equal(logged('redis unreachable'), 1, 'the outage is logged once');
      assert.equal(logged('redis reachable again'), 1, 'the recovery is logged once');
    });

    it('a lock held when Redis went away does not hold its key once Redis is back', async () => {
      const direct = new Redis(backing.redisUrl, { lazyConnect: true });
      await direct.connect();
      const path = freshVideo();
      try {
        stack.emulator.setFaults({ rules: [{ path: '/api/item/detail/', probability: 1, kind: 'latency', latencyMs: 300 }] });
        const inFlight = stack.get(path);
        // The work is running under its Redis lock: cut Redis before it ends, so the lock is not released.
        for (let i = 0; i < 1000 && (await direct.keys('reelay:coalesce:lock:*')).length === 0; i++) await new Promise((r) => setTimeout(r, 5));
        assert.ok((await direct.keys('reelay:coalesce:lock:*')).length >= 1, 'the lock was taken');
        redisRelay.cut();
        assert.equal((await inFlight).status, 200);
        stack.emulator.setFaults({ rules: [] });
        redisRelay.restore();
        await linkBecomes(true);
        const joinsBefore = await clusterJoins();
        const again = await timedGet(path);
        assertAnswered([again]);
        // Without releasing it, this caller would find the lock held and wait on its owner (for the
        // coalescer's 10 s) before running the work itself.
        assert.equal(await clusterJoins(), joinsBefore, 'the caller did not wait on a lock');
        assert.deepEqual(await direct.keys('reelay:coalesce:lock:*'), [], 'the orphaned locks were released');
      } finally {
        stack.emulator.setFaults({ rules: [] });
        direct.disconnect();
      }
    });

    it('with Redis stalled (connections open, no replies), a caller waits for a command timeout at most once per outage', async () => {
      const link = stack.app.services.redisLink!;
      await linkBecomes(true);
      const before = link.stats();
      redisRelay.stall();
      // Both start while Redis is thought up: each may wait once for its command's timeout (1 s).
      const first = await Promise.all([freshVideo(), freshVideo()].map(timedGet));
      assertAnswered(first);
      assert.equal(link.isUp(), false, 'a timed-out command marks Redis down');
      const tripped = link.stats();
      // A request may have two commands in flight when Redis stalls (its cache read and a write it
      // does not wait for), so the bound is two per caller; what matters is that it does not grow
      // with later callers, checked below.
      assert.ok(tripped.timedOutCommands - before.timedOutCommands <= 2 * first.length, `${tripped.timedOutCommands - before.timedOutCommands} timeouts`);
      assert.equal(tripped.outages, before.outages + 1);

      const later = await Promise.all([freshVideo(), freshVideo(), freshVideo(), freshVideo()].map(timedGet));
      assertAnswered(later);
      assert.deepEqual(link.stats(), tripped, 'once Redis is known down no caller sends it anything, so none waits');

      redisRelay.restore();
      await linkBecomes(true);
      const path = freshVideo();
      assert.equal((await stack.get(path)).status, 200);
      assert.match(String((await stack.get(path)).headers['cache-status']), /hit/);
    });

    it('with PostgreSQL cut, API keys are refused with 503 store_unavailable (REST and MCP), never accepted unchecked', async () => {
      pgRelay.cut();
      for (let i = 0; i < 3; i++) {
        const answer = await timedGet(freshVideo());
        assert.equal(answer.status, 503, answer.body);
        assert.match(String(answer.headers['content-type']), /application\/problem\+json/);
        assert.equal(answer.json.code, 'store_unavailable');
        assert.ok(Number(answer.headers['retry-after']) >= 1, `Retry-After ${answer.headers['retry-after']}`);
        assert.ok(answer.ms < ANSWER_BOUND_MS);
      }
      const mcp = await stack.app.mcp.inject({
        method: 'POST',
        url: '/',
        headers: { host: 'mcp.reelay.test', authorization: `Bearer ${stack.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });
      assert.equal(mcp.statusCode, 503, mcp.body);
      assert.ok(Number(mcp.headers['retry-after']) >= 1);
      const token = await stack.app.mcp.inject({
        method: 'POST',
        url: '/token',
        headers: { host: 'mcp.reelay.test', 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=authorization_code&code=abc&client_id=some-client&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&code_verifier=x',
      });
      assert.equal(token.statusCode, 503, token.body);
      assert.equal(token.json().error, 'temporarily_unavailable');
      assert.equal(logged('database unreachable'), 1, 'the outage is logged once');
      assert.equal(logged('redis unreachable'), 3, 'each Redis outage (cut, lock, stall) was logged once');
    });

    it('with PostgreSQL cut, /readyz answers 503 within its bound and names the database', async () => {
      const started = performance.now();
      const ready = await stack.app.rest.inject('/readyz');
      assert.ok(performance.now() - started < ANSWER_BOUND_MS);
      assert.equal(ready.statusCode, 503, ready.body);
      assert.equal(ready.json().database, 'down');
      assert.equal(ready.json().redis, 'ok');
    });

    it('with PostgreSQL cut, usage counts stay buffered and flushing neither throws nor blocks', async () => {
      const usage = stack.app.services.usage;
      usage.record('outage-key', 'get_video');
      await usage.flush();
      assert.ok(usage.stats().bufferedEntries >= 1);
      assert.equal(logged('usage counts cannot be written'), 1);
    });

    it('when PostgreSQL returns, keys are accepted again by themselves and buffered usage is written', async () => {
      pgRelay.restore();
      // The guard retries the database two seconds after refusing it: move Date past that instead of waiting.
      mock.timers.enable({ apis: ['Date'], now: Date.now() + 3000 });
      try {
        const answer = await stack.get(freshVideo());
        assert.equal(answer.status, 200, answer.body);
      } finally {
        mock.timers.reset();
      }
      assert.equal((await stack.get(freshVideo())).status, 200);
      assert.equal((await stack.app.rest.inject('/readyz')).statusCode, 200);
      assert.equal(logged('database reachable again'), 1);
      const usage = stack.app.services.usage;
      await usage.flush();
      assert.equal(usage.stats().bufferedEntries, 0);
      assert.equal(logged('usage counts written again'), 1);
    });

    it('no unhandled error event or rejection happened during the outages', () => {
      assert.deepEqual(unhandled, []);
      const ioredis = consoleErrors.mock.calls.filter((call) => String(call.arguments[0]).includes('ioredis'));
      assert.deepEqual(ioredis.map((call) => call.arguments.map(String).join(' ')), []);
    });
  });
}
