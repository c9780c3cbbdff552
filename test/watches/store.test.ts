// The watch store contract on SQLite and PostgreSQL: a run's snapshot, state and deliveries land
// together; claims are leased, so two stores on one database never take the same run or delivery.
// PostgreSQL runs in a schema of its own; it is skipped loudly when absent (a failure under CI=true).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore } from '../../src/storage/index.ts';
import { openWatchStore } from '../../src/watches/sql-store.ts';
import type { NewWatch, WatchStore } from '../../src/watches/types.ts';

const BASE_URL = process.env.REELAY_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `reelay_watch_test_${randomBytes(6).toString('hex')}`;
const pgUrl = `${BASE_URL}${BASE_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;

const watch = (id: string, nextRunAt: number): NewWatch => ({
  id, owner: 'key:k1', kind: 'user', target: 'someone', everyMs: 60_000, webhookUrl: 'https://example.com/h', webhookSecret: 'whsec_x',
  events: ['video.published'], nextRunAt, createdAt: 1,
});

function contract(name: string, open: () => Promise<{ a: WatchStore; b: WatchStore; close(): Promise<void> }>) {
  describe(`watch store: ${name}`, () => {
    test('a run writes its snapshot, state and deliveries together; history is in time order', async () => {
      const { a, close } = await open();
      try {
        await a.insert(watch('wch_1', 100));
        const [claimed] = await a.claimDueRuns(100, 1000, 10);
        assert.equal(claimed.id, 'wch_1');
        assert.deepEqual(await a.claimDueRuns(100, 1000, 10), [], 'a leased run is not claimed twice');
        for (const at of [300, 200]) {
          const ok = await a.completeRun('wch_1', {
            at, nextRunAt: at + 60_000, snapshot: { at, metrics: { followerCount: at } }, state: { seen: at }, failures: 0, lastError: null,
            deliveries: [{ id: `msg_${at}`, watchId: 'wch_1', eventType: 'video.published', payload: '{}', nextAttemptAt: at, expiresAt: at + 10, createdAt: at }],
          });
          assert.equal(ok, true);
        }
        assert.deepEqual((await a.history('wch_1', 0, 1000, 10)).map((p) => p.at), [200, 300]);
        assert.deepEqual((await a.get('wch_1'))?.state, { seen: 200 });
        assert.equal((await a.listDeliveries('wch_1', 'pending', 10)).length, 2);
        assert.equal(await a.completeRun('wch_gone', { at: 1, nextRunAt: 2, snapshot: { at: 1, metrics: {} }, deliveries: [], failures: 0, lastError: null }), false);
        assert.equal(await a.delete('wch_1'), true);
        assert.deepEqual(await a.history('wch_1', 0, 1000, 10), []);
      } finally {
        await close();
      }
    });

    test('two stores claiming at once take each due run exactly once', async () => {
      const { a, b, close } = await open();
      try {
        for (let i = 0; i < 50; i++) await a.insert(watch(`wch_c${i}`, 10));
        const [x, y] = await Promise.all([a.claimDueRuns(10, 5000, 50), b.claimDueRuns(10, 5000, 50)]);
        const ids = [...x, ...y].map((w) => w.id).sort();
        assert.equal(ids.length, 50);
        assert.equal(new Set(ids).size, 50);
        // A lapsed lease is claimed again: a node that died mid-run loses nothing.
        assert.equal((await b.claimDueRuns(5001, 9000, 50)).length, 50);
      } finally {
        await close();
      }
    });

    test('a run and a delivery claimed by id: once while leased, never early, again when the lease lapses', async () => {
      const { a, b, close } = await open();
      try {
        await a.insert(watch('wch_q', 1000));
        await a.insert(watch('wch_later', 5000));
        assert.equal(await a.claimRun('wch_q', 999, 999, 2000), null, 'not due yet');
        assert.equal((await a.claimRun('wch_q', 1000, 900, 2000))?.id, 'wch_q', 'due by the job\'s slot');
        assert.equal(await b.claimRun('wch_q', 1500, 1500, 3000), null, 'a duplicated job finds the lease');
        assert.equal((await b.claimRun('wch_q', 2001, 2001, 3000))?.id, 'wch_q', 'a lapsed lease is claimed again');
        assert.deepEqual(await a.listSchedules(), [{ id: 'wch_later', everyMs: 60_000, nextRunAt: 5000 }, { id: 'wch_q', everyMs: 60_000, nextRunAt: 1000 }]);
        await a.update('wch_later', { status: 'paused' }, 1);
        assert.deepEqual((await a.listSchedules()).map((w) => w.id), ['wch_q'], 'paused watches have no schedule');
        assert.equal(await a.claimRun('wch_later', 9000, 9000, 10_000), null, 'a paused watch is never claimed');

        await a.completeRun('wch_q', {
          at: 2100, nextRunAt: 62_100, snapshot: { at: 2100, metrics: {} }, state: {}, failures: 0, lastError: null,
          deliveries: ['msg_b', 'msg_a'].map((id, i) => ({ id, watchId: 'wch_q', eventType: 'snapshot' as const, payload: '{}', nextAttemptAt: 3000 + i, expiresAt: 99_999, createdAt: 2100 })),
        });
        assert.deepEqual(await a.listPendingDeliveries(10), [{ id: 'msg_b', nextAttemptAt: 3000 }, { id: 'msg_a', nextAttemptAt: 3001 }]);
        assert.deepEqual(await a.listPendingDeliveries(1), [{ id: 'msg_b', nextAttemptAt: 3000 }]);
        assert.equal(await a.claimDelivery('msg_b', 2999, 9000), null, 'not due yet');
        assert.equal(await a.deliveryDueAt('msg_b'), 3000);
        assert.equal((await a.claimDelivery('msg_b', 3000, 9000))?.id, 'msg_b');
        assert.equal(await b.claimDelivery('msg_b', 4000, 9000), null, 'leased by the other sender');
        assert.equal(await b.deliveryDueAt('msg_b'), 9000, 'claimable again when the lease lapses');
        await a.completeDelivery('msg_b', { status: 'delivered', attempts: 1, nextAttemptAt: 4000, lastStatus: 204, lastError: null, deliveredAt: 4000 });
        assert.equal(await b.claimDelivery('msg_b', 10_000, 20_000), null, 'a delivered one is not sent again');
        assert.equal(await b.deliveryDueAt('msg_b'), null);
        assert.equal(await b.deliveryDueAt('msg_unknown'), null);
        assert.deepEqual((await a.listPendingDeliveries(10)).map((d) => d.id), ['msg_a']);
      } finally {
        await close();
      }
    });
  });
}

contract('sqlite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'reelay-watch-store-'));
  const main = await openStore({ dataDir: dir });
  const a = await openWatchStore({ dataDir: dir });
  const b = await openWatchStore({ dataDir: dir });
  return {
    a, b,
    async close() {
      await a.close();
      await b.close();
      await main.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

async function preparePostgres(): Promise<string | null> {
  const admin = new pg.Client({ connectionString: BASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await admin.end().catch(() => {});
  }
}

const unreachable = await preparePostgres();
if (unreachable !== null) {
  test('watch store: postgres', (t) => {
    const message = `PostgreSQL not reachable (${unreachable}): watch store suite skipped`;
    if (process.env.CI === 'true') assert.fail(message);
    console.warn(`\n!!! ${message}\n`);
    t.skip(message);
  });
} else {
  after(async () => {
    const admin = new pg.Client({ connectionString: BASE_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });
  contract('postgres', async () => {
    const main = await openStore({ databaseUrl: pgUrl, dataDir: '' });
    const a = await openWatchStore({ databaseUrl: pgUrl, dataDir: '' });
    const b = await openWatchStore({ databaseUrl: pgUrl, dataDir: '' });
    return {
      a, b,
      async close() {
        // Each test starts from empty tables.
        await main.close();
        const admin = new pg.Client({ connectionString: pgUrl });
        await admin.connect();
        await admin.query('TRUNCATE watch_snapshots, watch_deliveries, watches');
        await admin.end();
        await a.close();
        await b.close();
      },
    };
  });
}
