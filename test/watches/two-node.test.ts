// Two `reelay serve` nodes on one PostgreSQL and one Redis run watches on BullMQ: 50 watches, each
// due run happens once (the emulator's request counts match the stored history), and a node killed
// with deliveries in flight loses none: the survivor delivers every one the store lists.
// Skipped loudly without PostgreSQL or Redis; under CI=true their absence fails.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmulator, type Emulator } from '../../emulator/server.ts';
import { claimBacking, skipWithoutBacking, type Backing } from '../scale/backing.ts';
import { runReelay, startNode, type ServiceNode } from '../scale/processes.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { until } from '../helpers/until.ts';

const WATCHES = 50;
/** The one platform request of a video watch's run. */
const ITEM_DETAIL = '/api/item/detail/';
/** 1 s: the freshness cap (policies.ts) is half an interval in whole seconds, 0 here, so no run is served from cache. */
const EVERY_MS = 1000;
const RUNS_EACH = 5;
/** A killed node's claims lapse after the store's lease (60 s) and BullMQ's stalled check (30 s) hands its jobs on. */
const TAKEOVER_DEADLINE_MS = 150_000;
const USERS_PUBLISHING = 3;
const VIDEOS_EACH = 7;
/** Deliveries one node has in flight at most (the scheduler's delivery concurrency). */
const DELIVERY_CONCURRENCY = 8;

const claimed = await claimBacking();


if ('unavailable' in claimed) {
  it('two nodes run each due watch once on BullMQ and a killed node loses no delivery', (t) => {
    skipWithoutBacking(t, 'two-node watch test', claimed.unavailable);
  });
} else {
  describe('watches on two nodes (PostgreSQL + Redis, BullMQ)', () => {
    const backing: Backing = claimed;
    let emulator: Emulator;
    let receiver: Receiver;
    let db: pg.Client;
    let dataDir: string;
    let env: Record<string, string>;
    let a: ServiceNode;
    let b: ServiceNode;
    let key: string;
    let release: () => void = () => {};

    async function call(node: ServiceNode, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
      const response = await fetch(`${node.restUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, json: text ? JSON.parse(text) : null };
    }

    async function snapshotCounts(ids: string[]): Promise<Map<string, number>> {
      const { rows } = await db.query('SELECT watch_id, COUNT(*)::int AS n FROM watch_snapshots WHERE watch_id = ANY($1) GROUP BY watch_id', [ids]);
      return new Map(rows.map((r) => [r.watch_id as string, r.n as number]));
    }

    const videoRequests = () => emulator.stats()[ITEM_DETAIL] ?? 0;

    before(async () => {
      emulator = await startEmulator({ seed: 3 });
      receiver = await startReceiver();
      dataDir = await mkdtemp(join(tmpdir(), 'reelay-two-node-'));
      db = new pg.Client({ connectionString: backing.databaseUrl });
      await db.connect();
      env = {
        REELAY_DATABASE_URL: backing.databaseUrl,
        REELAY_REDIS_URL: backing.redisUrl,
        // A prefix of this run's own: its queues are apart from any other, and go with the claimed database.
        REELAY_WATCH_QUEUE_PREFIX: `reelay-test-${randomBytes(4).toString('hex')}`,
        REELAY_DATA_DIR: dataDir,
        REELAY_PLATFORM_WEB_ORIGIN: emulator.url,
        REELAY_PLATFORM_WEBCAST_ORIGIN: emulator.url,
        REELAY_BROWSER: 'off',
        REELAY_IDENTITY_RPS: '1000',
        REELAY_RATE_LIMIT_PER_MINUTE: '100000',
        REELAY_WATCH_MIN_INTERVAL: '1s',
        REELAY_WEBHOOK_ALLOW_PRIVATE: '1',
        REELAY_WEBHOOK_RETRY_BASE: '1s',
        // Longer than the receiver holds a delivery open, so a held delivery is one attempt in flight.
        REELAY_WEBHOOK_TIMEOUT: '20s',
      };
      const [nodeA, nodeB, created] = await Promise.all([startNode(env), startNode(env), runReelay(['keys', 'create', '--name', 'two-node'], env)]);
      [a, b] = [nodeA, nodeB];
      assert.equal(created.code, 0, created.stderr);
      key = created.stdout.trim();
    });

    after(async () => {
      release();
      await Promise.allSettled([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
      await db?.end().catch(() => {});
      await receiver?.close();
      await emulator?.close();
      // Drops the schema and flushes the claimed Redis database, queues and all.
      await backing.release();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it(`${WATCHES} watches: each due run happens once across both nodes`, async () => {
      // Distinct videos, so no two watches share a platform request or a cache entry.
      const videoIds: string[] = [];
      let path = `/v1/platform/users/${emulator.manifest.users.manyVideos}/videos?count=35`;
      for (let page = 0; page < 5 && videoIds.length < WATCHES; page++) {
        const answer = await call(b, 'GET', path);
        assert.equal(answer.status, 200, JSON.stringify(answer.json));
        videoIds.push(...answer.json.data.orderedItems.map((v: { id: string }) => v.id.split('/').pop()!));
        if (!answer.json.data.next) break;
        const next = new URL(answer.json.data.next);
        path = `${next.pathname}${next.search}`;
      }
      assert.ok(videoIds.length >= WATCHES, `only ${videoIds.length} videos found`);

      const before = videoRequests();
      const watches: { id: string; createdAt: number }[] = [];
      for (let i = 0; i < WATCHES; i++) {
        const created = await call(i % 2 ? a : b, 'POST', '/v1/watches', { kind: 'video', target: videoIds[i], every: '1s' });
        assert.equal(created.status, 201, JSON.stringify(created.json));
        watches.push({ id: created.json.data.id, createdAt: Date.parse(created.json.data.createdAt) });
      }
      const ids = watches.map((w) => w.id);
      await until(`every watch has ${RUNS_EACH} runs`, async () => {
        const counts = await snapshotCounts(ids);
        return ids.every((id) => (counts.get(id) ?? 0) >= RUNS_EACH) ? true : undefined;
      });
      for (const [i, id] of ids.entries()) {
        const paused = await call(i % 2 ? b : a, 'PATCH', `/v1/watches/${id}`, { status: 'paused' });
        assert.equal(paused.status, 200);
      }
      // Paused watches are never claimed; runs claimed before the pause finish and record. A run reads
      // its video once and records one snapshot, with no cache at this interval: the totals meet exactly
      // (a duplicated run coalesced with its twin would leave more snapshots than requests, forever).
      let seen = { requests: 0, snapshots: 0 };
      const totals = await until(() => `video requests and snapshots settle equal (last: ${JSON.stringify(seen)}, emulator: ${JSON.stringify(emulator.stats())})`, async () => {
        const requests = videoRequests() - before;
        const snapshots = [...(await snapshotCounts(ids)).values()].reduce((sum, n) => sum + n, 0);
        seen = { requests, snapshots };
        return requests === snapshots ? seen : undefined;
      });
      assert.ok(totals.snapshots >= WATCHES * RUNS_EACH);

      // Once per due run: runs of a watch are at most the slots between its creation and its last run
      // (slots are `every` apart and none comes before creation), whatever the machine's speed.
      const { rows } = await db.query('SELECT watch_id, COUNT(*)::int AS n, MAX(at)::float8 AS last FROM watch_snapshots WHERE watch_id = ANY($1) GROUP BY watch_id', [ids]);
      const byId = new Map(rows.map((r) => [r.watch_id as string, { n: r.n as number, last: r.last as number }]));
      for (const w of watches) {
        const seen = byId.get(w.id)!;
        const slots = Math.floor((seen.last - w.createdAt) / EVERY_MS + 0.5) + 1;
        assert.ok(seen.n <= slots, `watch ${w.id}: ${seen.n} runs in ${slots} slots`);
      }
    });

    it('a node killed with deliveries in flight loses none: the other delivers every one', async () => {
      // Distinct accounts (some of the manifest's roles are one account), each with one watch.
      const { public: first, manyVideos, withPlaylists, notLive, hiddenFollowers } = emulator.manifest.users;
      const users = [...new Set([first, manyVideos, withPlaylists, notLive, hiddenFollowers])].slice(0, USERS_PUBLISHING);
      assert.equal(users.length, USERS_PUBLISHING);
      const watchIds: string[] = [];
      for (const username of users) {
        const created = await call(a, 'POST', '/v1/watches', { kind: 'user', target: username, every: '1s', webhook: { url: receiver.url } });
        assert.equal(created.status, 201, JSON.stringify(created.json));
        watchIds.push(created.json.data.id);
      }
      // The baseline run records what is there; only videos published after it are events.
      await until('each user watch has its baseline run', async () => {
        const counts = await snapshotCounts(watchIds);
        return watchIds.every((id) => (counts.get(id) ?? 0) >= 1) ? true : undefined;
      });

      // Hold every delivery open until the kill: a node sends at most DELIVERY_CONCURRENCY at once, so
      // with more than that open at once, the node about to be killed has at least one in flight.
      const held = new Promise<number>((resolve) => {
        release = () => resolve(204);
      });
      receiver.answer = () => held;
      for (const username of users) {
        for (let i = 0; i < VIDEOS_EACH; i++) {
          const published = await fetch(`${emulator.url}/__emulator/users/${username}/videos`, { method: 'POST', body: '{}' });
          assert.equal(published.status, 201);
        }
      }
      await until(`more than ${DELIVERY_CONCURRENCY} deliveries open at the receiver`, async () => (receiver.open() > DELIVERY_CONCURRENCY ? true : undefined));
      const arrivedBeforeKill = new Set(receiver.arrived.map((r) => String(r.headers['webhook-id'])));
      a.child.kill('SIGKILL');
      await a.exited;
      receiver.answer = () => 204;
      release();

      const expected = USERS_PUBLISHING * VIDEOS_EACH;
      let listed: { id: string; status: string; event: string; attempts: number }[] = [];
      const summary = () => JSON.stringify(listed.map((d) => `${d.id}:${d.status}:${d.attempts}`));
      const deliveries = await until(() => `all ${expected} deliveries delivered by the surviving node (last: ${summary()}; node b: ${b.stderr().slice(-2000)})`, async () => {
        const all: typeof listed = [];
        for (const id of watchIds) {
          const answer = await call(b, 'GET', `/v1/watches/${id}/deliveries?limit=500`);
          assert.equal(answer.status, 200);
          all.push(...answer.json.data);
        }
        listed = all;
        return all.length === expected && all.every((d) => d.status === 'delivered') ? all : undefined;
      }, TAKEOVER_DEADLINE_MS);

      assert.ok(deliveries.every((d) => d.event === 'video.published'));
      const answered = new Map<string, number>();
      for (const r of receiver.requests) {
        const id = String(r.headers['webhook-id']);
        if (r.status === 204) answered.set(id, (answered.get(id) ?? 0) + 1);
      }
      for (const d of deliveries) assert.ok(answered.has(d.id), `delivery ${d.id} never reached the receiver`);
      // What the killed node had in flight was sent again by the survivor: some ids arrived twice.
      const again = [...arrivedBeforeKill].filter((id) => receiver.arrived.filter((r) => r.headers['webhook-id'] === id).length > 1);
      assert.ok(again.length >= 1, 'no delivery in flight on the killed node was sent again');
      const pendingOrFailed = await db.query("SELECT COUNT(*)::int AS n FROM watch_deliveries WHERE status <> 'delivered'");
      assert.equal(pendingOrFailed.rows[0].n, 0);
    });
  });
}
