// Two `reelay serve` processes on one PostgreSQL and one Redis, both in front of one emulator: keys,
// revocations, rate limits, cache entries and in-flight platform requests are shared between them.
// Skipped loudly without PostgreSQL or Redis; under CI=true their absence fails.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../../emulator/server.ts';
import { claimBacking, skipWithoutBacking, type Backing } from './backing.ts';
import { runReelay, startNode, type ServiceNode } from './processes.ts';
import { checkedFetch } from '../helpers/contract.ts';

const ITEM_DETAIL = '/api/item/detail/';
const RATE_LIMIT_PER_MINUTE = 20;

const claimed = await claimBacking();

if ('unavailable' in claimed) {
  it('two nodes on PostgreSQL and Redis share keys, limits, cache and platform requests', (t) => {
    skipWithoutBacking(t, 'multi-node test', claimed.unavailable);
  });
} else {
  describe('two nodes on PostgreSQL and Redis', () => {
    const backing: Backing = claimed;
    let emulator: Emulator;
    let dataDir: string;
    let env: Record<string, string>;
    let a: ServiceNode;
    let b: ServiceNode;
    let m: any;
    let keys: Record<string, string>;

    async function createKey(name: string): Promise<string> {
      const result = await runReelay(['keys', 'create', '--name', name], env);
      assert.equal(result.code, 0, result.stderr);
      return result.stdout.trim();
    }

    async function get(node: ServiceNode, path: string, key: string) {
      return checkedFetch(`${node.restUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    }

    before(async () => {
      emulator = await startEmulator({ seed: 1 });
      m = emulator.manifest;
      dataDir = await mkdtemp(join(tmpdir(), 'reelay-multi-'));
      env = {
        REELAY_DATABASE_URL: backing.databaseUrl,
        REELAY_REDIS_URL: backing.redisUrl,
        REELAY_DATA_DIR: dataDir,
        REELAY_PLATFORM_WEB_ORIGIN: emulator.url,
        REELAY_PLATFORM_WEBCAST_ORIGIN: emulator.url,
        REELAY_IDENTITY_RPS: '1000',
        REELAY_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE),
      };
      // Both nodes and three `keys create` runs migrate the empty schema at the same moment.
      const names = ['shared', 'to-revoke', 'limited'];
      const [nodeA, nodeB, ...created] = await Promise.all([startNode(env), startNode(env), ...names.map(createKey)]);
      [a, b] = [nodeA as ServiceNode, nodeB as ServiceNode];
      keys = Object.fromEntries(names.map((name, i) => [name, created[i] as string]));
    });

    after(async () => {
      await Promise.allSettled([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
      await emulator?.close();
      await backing.release();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('a key created with `reelay keys create` works on both nodes, and a cache entry filled by one is a hit on the other', async () => {
      const key = keys['shared'];
      const path = `/v1/platform/videos/${m.videos.withReplies.id}`;
      const before = emulator.stats()[ITEM_DETAIL] ?? 0;
      const first = await get(a, path, key);
      assert.equal(first.status, 200, first.body);
      assert.match(String(first.headers.get('cache-status')), /fwd=uri-miss/);
      const second = await get(b, path, key);
      assert.equal(second.status, 200, second.body);
      assert.match(String(second.headers.get('cache-status')), /^reelay; hit/);
      assert.equal(second.body, first.body);
      assert.equal(second.headers.get('etag'), first.headers.get('etag'));
      assert.equal((emulator.stats()[ITEM_DETAIL] ?? 0) - before, 1);
    });

    it('a cursor handed out by one node pages on the other (one cursor key in the database), and a forged one is refused by both', async () => {
      const key = keys['shared'];
      const path = `/v1/platform/users/${m.users.manyVideos}/videos?count=7`;
      const first = await get(a, path, key);
      assert.equal(first.status, 200, first.body);
      const cursor: string = JSON.parse(first.body).data.nextCursor;
      const second = await get(b, `${path}&cursor=${cursor}`, key);
      assert.equal(second.status, 200, second.body);
      assert.equal(JSON.parse(second.body).data.orderedItems.length, 7);
      const forged = `${cursor.slice(0, cursor.lastIndexOf('.') + 1)}AAAAAAAAAAAAAAAAAAAAAA`;
      for (const node of [a, b]) {
        const refused = await get(node, `${path}&cursor=${forged}`, key);
        assert.equal(refused.status, 400, refused.body);
        assert.equal(JSON.parse(refused.body).code, 'invalid_cursor');
      }
    });

    it('a revoked key is refused by both nodes at once', async () => {
      const key = keys['to-revoke'];
      const path = `/v1/platform/videos/${m.videos.withReplies.id}`;
      assert.equal((await get(a, path, key)).status, 200);
      assert.equal((await get(b, path, key)).status, 200);
      const revoked = await runReelay(['keys', 'revoke', key], env);
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.equal((await get(b, path, key)).status, 401);
      assert.equal((await get(a, path, key)).status, 401);
    });

    it('the rate limit of a key is one budget across both nodes', async () => {
      const key = keys['limited'];
      const path = `/v1/platform/videos/${m.videos.withReplies.id}`;
      for (let i = 0; i < RATE_LIMIT_PER_MINUTE; i++) {
        const answer = await get(i % 2 === 0 ? a : b, path, key);
        assert.equal(answer.status, 200, `request ${i + 1}: ${answer.body}`);
      }
      for (const node of [a, b]) {
        const refused = await get(node, path, key);
        assert.equal(refused.status, 429, refused.body);
        assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      }
    });

    it('simultaneous identical misses on both nodes cause one platform request', async () => {
      const key = keys['shared'];
      const path = `/v1/platform/videos/${m.videos.withTranscripts.id}`;
      // Latency keeps every request in flight while the first platform request runs.
      emulator.setFaults({ rules: [{ path: ITEM_DETAIL, probability: 1, kind: 'latency', latencyMs: 300 }] });
      const before = emulator.stats()[ITEM_DETAIL] ?? 0;
      let answers;
      try {
        answers = await Promise.all(Array.from({ length: 10 }, (_, i) => get(i % 2 === 0 ? a : b, path, key)));
      } finally {
        emulator.setFaults({ rules: [] });
      }
      assert.deepEqual(new Set(answers.map((x) => x.status)), new Set([200]));
      assert.equal(new Set(answers.map((x) => x.body)).size, 1);
      assert.equal((emulator.stats()[ITEM_DETAIL] ?? 0) - before, 1);
    });

    it('both nodes stop cleanly, and `reelay keys usage` counts the requests either node served', async () => {
      const key = keys['shared'];
      const path = `/v1/platform/videos/${m.videos.withReplies.id}`;
      for (const node of [a, b, b]) assert.equal((await get(node, path, key)).status, 200);
      // Usage is buffered per node and flushed on shutdown.
      assert.deepEqual(await Promise.all([a.stop('SIGTERM'), b.stop('SIGTERM')]), [0, 0]);
      const usage = await runReelay(['keys', 'usage', '--key', key], env);
      assert.equal(usage.code, 0, usage.stderr);
      const counts = usage.stdout.trim().split('\n').slice(1).map((line) => Number(line.trim().split(/\s+/).pop()));
      // 2 + 4 (two pages, two refused cursors) + 10 requests in the earlier tests, 3 here.
      assert.equal(counts.reduce((sum, n) => sum + n, 0), 19, usage.stdout);
    });
  });
}
