// A node running watches on BullMQ (PostgreSQL + Redis, Redis through a TCP relay) through Redis
// outages: while Redis is cut or stalled its watches go on from PostgreSQL alone, a webhook created
// meanwhile is delivered once Redis is back (same webhook-id), the sweep re-creates the queues of a
// Redis that came back empty, and across it all each due run happened once (emulator counts).
// Skipped loudly without PostgreSQL or Redis; under CI=true their absence fails.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { claimBacking, skipWithoutBacking, type Backing } from '../scale/backing.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { startTcpRelay, viaRelay, type TcpRelay } from '../helpers/tcp-relay.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { RUN_QUEUE } from '../../src/watches/bullmq-scheduler.ts';
import { until } from '../helpers/until.ts';

/** The one platform request of a video watch's run. */
const ITEM_DETAIL = '/api/item/detail/';
const EVERY_MS = 1000;
const VIDEO_WATCHES = 2;
/** Settled runs awaited per watch in each phase (before, during and after an outage). */
const RUNS_PER_PHASE = 3;

const claimed = await claimBacking();


if ('unavailable' in claimed) {
  it('watches on BullMQ survive a Redis outage', (t) => {
    skipWithoutBacking(t, 'Redis-outage watch test', claimed.unavailable);
  });
} else {
  describe('watches on BullMQ through Redis outages', () => {
    const backing: Backing = claimed;
    const prefix = `reelay-test-${randomBytes(4).toString('hex')}`;
    const settled = new EventEmitter();
    const runs = new Map<string, number>();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    let relay: TcpRelay;
    let stack: Stack;
    let receiver: Receiver;
    let db: pg.Client;
    let direct: Redis;
    let queue: Queue;
    let videoWatches: { id: string; createdAt: number }[] = [];
    let userWatch: { id: string; secret: string; username: string };
    let itemRequestsBefore = 0;
    let redisCut = false;

    settled.on('run', (id: string) => runs.set(id, (runs.get(id) ?? 0) + 1));

    const watchIds = () => [...videoWatches.map((w) => w.id), userWatch.id];
    const itemRequests = () => stack.emulator.stats()[ITEM_DETAIL] ?? 0;
    const logLines = () => stack.logs.map((line) => JSON.parse(line) as { level: number; msg: string });
    const logged = (text: string) => logLines().filter((line) => line.msg.startsWith(text)).length;

    async function call(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown): Promise<{ status: number; json: any; body: string }> {
      const response = await stack.app.rest.inject({ method, url, headers: { authorization: `Bearer ${stack.key}` }, ...(body === undefined ? {} : { payload: body as object }) });
      let json: unknown;
      try {
        json = JSON.parse(response.body);
      } catch {
        json = undefined;
      }
      return { status: response.statusCode, json, body: response.body };
    }

    /** Waits until every watch has settled `count` more runs than in `from`. */
    async function runsBeyond(from: Map<string, number>, count: number, phase: string): Promise<void> {
      const behind = () => watchIds().filter((id) => (runs.get(id) ?? 0) - (from.get(id) ?? 0) < count);
      await until(() => `${phase}: ${count} more runs of each watch (behind: ${behind().map((id) => `${id}:${(runs.get(id) ?? 0) - (from.get(id) ?? 0)}`).join(', ')})`, () => (behind().length === 0 ? true : undefined));
    }

    /** The BullMQ job schedulers in Redis (read directly, not through the relay), by watch id. */
    async function schedulers(): Promise<Map<string, number>> {
      const list = await queue.getJobSchedulers(0, -1);
      return new Map(list.map((s) => [s.key, s.iterationCount ?? 0]));
    }

    async function linkBecomes(up: boolean): Promise<void> {
      const link = stack.app.services.redisLink!;
      await until(`the node's Redis link ${up ? 'up' : 'down'}`, () => (link.isUp() === up ? true : undefined));
    }

    async function deliveriesOf(id: string): Promise<{ id: string; status: string; event: string; attempts: number }[]> {
      const answer = await call('GET', `/v1/watches/${id}/deliveries?limit=500`);
      assert.equal(answer.status, 200, answer.body);
      return answer.json.data;
    }

    before(async () => {
      process.on('unhandledRejection', onUnhandled);
      relay = await startTcpRelay({ port: Number(new URL(backing.redisUrl).port || 6379) });
      receiver = await startReceiver();
      // Every attempt while Redis is cut fails, so the delivery made in the outage is retried after it.
      receiver.answer = () => (redisCut ? 503 : 204);
      stack = await startStack({
        config: {
          databaseUrl: backing.databaseUrl,
          redisUrl: viaRelay(backing.redisUrl, relay),
          watchQueuePrefix: prefix,
          watchMinInterval: '1s',
          webhookAllowPrivate: '1',
          webhookRetryBase: '1s',
          rateLimitPerMinute: '100000',
        },
        services: { watchEvents: (e) => settled.emit(e.kind, e.id) },
      });
      db = new pg.Client({ connectionString: backing.databaseUrl });
      await db.connect();
      direct = new Redis(backing.redisUrl, { maxRetriesPerRequest: 1 });
      queue = new Queue(RUN_QUEUE, { connection: { url: backing.redisUrl, maxRetriesPerRequest: 1 }, prefix });
    });

    after(async () => {
      process.off('unhandledRejection', onUnhandled);
      // A failed test may leave Redis cut or stalled: the node shuts down with Redis reachable.
      relay?.restore();
      await stack?.close();
      await queue?.close();
      direct?.disconnect();
      await db?.end().catch(() => {});
      await receiver?.close();
      await relay?.close();
      await backing.release();
    });

    it('the node runs its watches on BullMQ: a job scheduler per watch, its jobs making the runs', async () => {
      assert.equal(logged('watch scheduler: BullMQ queues on Redis'), 1, 'the node chose the BullMQ scheduler');
      const m = stack.emulator.manifest;
      const page = await stack.get(`/v1/platform/users/${m.users.manyVideos}/videos?count=35&projection_preset=minimal`);
      assert.equal(page.status, 200, page.body);
      const videos: string[] = page.json.data.orderedItems.map((item: any) => String(item.internalId));
      assert.ok(videos.length >= VIDEO_WATCHES);

      itemRequestsBefore = itemRequests();
      for (const video of videos.slice(0, VIDEO_WATCHES)) {
        const created = await call('POST', '/v1/watches', { kind: 'video', target: video, every: '1s' });
        assert.equal(created.status, 201, created.body);
        videoWatches.push({ id: created.json.data.id, createdAt: Date.parse(created.json.data.createdAt) });
      }
      const username = m.users.public;
      const created = await call('POST', '/v1/watches', { kind: 'user', target: username, every: '1s', webhook: { url: receiver.url } });
      assert.equal(created.status, 201, created.body);
      userWatch = { id: created.json.data.id, secret: created.json.data.webhook.secret, username };

      // Redis is up and the fallback has never started: these runs can only come from BullMQ's jobs.
      assert.equal(stack.app.services.redisLink!.isUp(), true);
      await runsBeyond(new Map(), RUNS_PER_PHASE, 'on BullMQ');
      const found = await schedulers();
      for (const id of watchIds()) assert.ok((found.get(id) ?? 0) >= RUNS_PER_PHASE, `scheduler of ${id}: ${found.get(id)} jobs made`);
      assert.equal(logged('watches run from PostgreSQL alone'), 0, 'the fallback did not run');
    });

    it('with Redis cut, runs go on from PostgreSQL, the API answers, and a new event is recorded for delivery', async () => {
      redisCut = true;
      relay.cut();
      await linkBecomes(false);
      await until('the fallback started', () => (logged('watches run from PostgreSQL alone') === 1 ? true : undefined));
      // The outage is a Redis restart that lost its data: the queues must come back from PostgreSQL.
      await direct.flushdb();

      const atCut = new Map(runs);
      const published = await fetch(`${stack.emulator.url}/__emulator/users/${userWatch.username}/videos`, { method: 'POST', body: '{}' });
      assert.equal(published.status, 201);
      await runsBeyond(atCut, RUNS_PER_PHASE, 'with Redis cut');

      const pending = await until('the outage event recorded and attempted', async () => {
        const list = await deliveriesOf(userWatch.id);
        return list.length === 1 && list[0]!.attempts >= 1 ? list[0]! : undefined;
      });
      assert.equal(pending.event, 'video.published');
      assert.equal(pending.status, 'pending', 'every attempt while Redis is cut was refused by the receiver');

      const watch = await call('GET', `/v1/watches/${userWatch.id}`);
      assert.equal(watch.status, 200, watch.body);
      assert.equal(watch.json.data.status, 'active');
      const ready = await stack.app.rest.inject('/readyz');
      assert.deepEqual(ready.json(), { status: 'degraded', database: 'ok', redis: 'down' });
      assert.deepEqual(await schedulers(), new Map(), 'Redis holds no scheduler: nothing could have run on BullMQ');
    });

    it('when Redis returns, the sweep re-creates the schedulers, runs go on through BullMQ and the outage delivery lands', async () => {
      redisCut = false;
      relay.restore();
      await linkBecomes(true);
      const made = await until('a job scheduler again for each watch', async () => {
        const found = await schedulers();
        return watchIds().every((id) => found.has(id)) ? found : undefined;
      });
      const atRestore = new Map(runs);
      await runsBeyond(atRestore, RUNS_PER_PHASE, 'after Redis returned');
      const now = await schedulers();
      for (const id of watchIds()) {
        assert.ok((now.get(id) ?? 0) - (made.get(id) ?? 0) >= RUNS_PER_PHASE - 1, `scheduler of ${id} made ${now.get(id)! - made.get(id)!} jobs since the sweep`);
      }

      const delivery = await until('the outage delivery delivered', async () => {
        const list = await deliveriesOf(userWatch.id);
        return list.length === 1 && list[0]!.status === 'delivered' ? list[0]! : undefined;
      });
      const attempts = receiver.requests.filter((r) => r.headers['webhook-id'] === delivery.id);
      assert.equal(attempts.length, delivery.attempts, 'each recorded attempt reached the receiver, under one webhook-id');
      assert.ok(attempts.length >= 2, 'refused during the outage, sent again after it');
      assert.deepEqual(attempts.slice(0, -1).map((r) => r.status).filter((s) => s !== 503), []);
      assert.equal(attempts.at(-1)!.status, 204);
      for (const r of attempts) {
        const headers = { 'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']) };
        assert.equal((new Webhook(userWatch.secret).verify(r.body, headers) as any).type, 'video.published');
      }
    });

    it('with Redis stalled (connections open, no replies), runs go on', async () => {
      const atStall = new Map(runs);
      relay.stall();
      // No API call here: the node must notice a hung Redis by itself, from its watches alone.
      await runsBeyond(atStall, RUNS_PER_PHASE, 'with Redis stalled');
      relay.restore();
      await linkBecomes(true);
      const atRestore = new Map(runs);
      await runsBeyond(atRestore, RUNS_PER_PHASE, 'after the stall');
    });

    it('across the outages each due run happened once: platform reads equal snapshots, never more runs than slots', async () => {
      for (const w of videoWatches) {
        const paused = await call('PATCH', `/v1/watches/${w.id}`, { status: 'paused' });
        assert.equal(paused.status, 200, paused.body);
      }
      const ids = videoWatches.map((w) => w.id);
      // Runs claimed before the pause finish and record; then a video watch's run is one item-detail
      // read and one snapshot (no cache at a 1 s interval), so the totals meet exactly.
      let seen = { requests: 0, snapshots: 0 };
      await until(() => `item-detail requests and snapshots settle equal (last: ${JSON.stringify(seen)})`, async () => {
        const { rows } = await db.query('SELECT COUNT(*)::int AS n FROM watch_snapshots WHERE watch_id = ANY($1)', [ids]);
        seen = { requests: itemRequests() - itemRequestsBefore, snapshots: rows[0].n };
        return seen.requests === seen.snapshots ? true : undefined;
      });
      const { rows } = await db.query('SELECT watch_id, COUNT(*)::int AS n, MAX(at)::float8 AS last FROM watch_snapshots WHERE watch_id = ANY($1) GROUP BY watch_id', [ids]);
      const byId = new Map(rows.map((r) => [r.watch_id as string, { n: r.n as number, last: r.last as number }]));
      for (const w of videoWatches) {
        const found = byId.get(w.id)!;
        assert.equal(found.n, runs.get(w.id), `watch ${w.id}: snapshots equal its settled runs`);
        // Slots are `every` apart from creation: a run twice in one slot would exceed them.
        const slots = Math.floor((found.last - w.createdAt) / EVERY_MS + 0.5) + 1;
        assert.ok(found.n <= slots, `watch ${w.id}: ${found.n} runs in ${slots} slots`);
      }
      const left = await db.query("SELECT COUNT(*)::int AS n FROM watch_deliveries WHERE status <> 'delivered'");
      assert.equal(left.rows[0].n, 0, 'no delivery left pending or failed');
    });

    it('no unhandled rejection and no error or fatal log line through the outages', () => {
      assert.deepEqual(unhandled, []);
      assert.deepEqual(logLines().filter((line) => line.level >= 50), []);
    });
  });
}
