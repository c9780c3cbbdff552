// The real process (`node src/main.ts serve`): SIGTERM lets in-flight requests finish whole while new
// connections are refused, and a configured but unreachable PostgreSQL or Redis stops the start at once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { startEmulator, type Emulator } from '../../emulator/server.ts';
import { closedPort, runReelay, startNode, type ServiceNode } from './processes.ts';
import { checkedFetch } from '../helpers/contract.ts';

const ITEM_DETAIL = '/api/item/detail/';

function refusesConnections(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** Waits (bounded) for `condition`, re-checking after real I/O had a chance to happen. */
async function until(condition: () => boolean | Promise<boolean>, what: string, rounds = 300): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    if (await condition()) return;
    await delay(10);
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('graceful shutdown of reelay serve', () => {
  let emulator: Emulator;
  let dataDir: string;
  let node: ServiceNode;
  before(async () => {
    emulator = await startEmulator({ seed: 1 });
    dataDir = await mkdtemp(join(tmpdir(), 'reelay-lifecycle-'));
    node = await startNode({
      REELAY_DATA_DIR: dataDir,
      REELAY_PLATFORM_WEB_ORIGIN: emulator.url,
      REELAY_PLATFORM_WEBCAST_ORIGIN: emulator.url,
      REELAY_IDENTITY_RPS: '1000',
    });
  });
  after(async () => {
    await node?.stop('SIGKILL'); // undefined when the start failed: still close the emulator below
    await emulator.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('on SIGTERM every in-flight request completes with a full 200, new connections are refused, exit 0', async () => {
    await until(() => /keep it\):\s+\S+/.test(node.stderr()), 'the first key to be printed');
    const key = /keep it\):\s+(\S+)/.exec(node.stderr())?.[1];
    const m: any = emulator.manifest;
    const ids: string[] = [m.videos.withReplies.id, m.videos.withTranscripts.id, m.videos.pinned, m.videos.photo];
    emulator.setFaults({ rules: [{ path: ITEM_DETAIL, probability: 1, kind: 'latency', latencyMs: 800 }] });
    let settled = 0;
    const inFlight = ids.map(async (id) => {
      const { status, body } = await checkedFetch(`${node.restUrl}/v1/platform/videos/${id}`, { headers: { authorization: `Bearer ${key}` } });
      settled += 1;
      return { status, body, id };
    });
    await until(() => (emulator.stats()[ITEM_DETAIL] ?? 0) >= ids.length, 'every request to reach the platform');

    node.child.kill('SIGTERM');
    await until(() => node.stderr().includes('SIGTERM received'), 'the shutdown to start');
    await until(() => refusesConnections(node.restUrl), 'the REST listener to close');
    assert.ok(await refusesConnections(node.mcpUrl), 'the MCP listener is closed too');
    assert.equal(settled, 0, 'the listeners closed while the requests were still in flight');

    for (const answer of await Promise.all(inFlight)) {
      assert.equal(answer.status, 200, answer.body);
      assert.match(JSON.parse(answer.body).data.id, new RegExp(`${answer.id}$`), 'a whole body, not a cut-off one');
    }
    assert.equal(await node.exited, 0, node.stderr());
  });
});

describe('startup with an unreachable backing service', { concurrency: true }, () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'reelay-failfast-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  for (const { name, url } of [
    { name: 'REELAY_DATABASE_URL', url: (port: number) => `postgres://postgres@127.0.0.1:${port}/test` },
    { name: 'REELAY_REDIS_URL', url: (port: number) => `redis://127.0.0.1:${port}` },
  ]) {
    it(`fails fast, naming ${name}, when it points at a closed port`, async () => {
      const result = await runReelay(['serve'], {
        REELAY_PORT: '0',
        REELAY_MCP_PORT: '0',
        REELAY_DATA_DIR: dataDir,
        [name]: url(await closedPort()),
      });
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, new RegExp(name));
      assert.match(result.stderr, /127\.0\.0\.1:\d+/, 'the message says where');
      assert.match(result.stderr, /ECONNREFUSED/, 'the message gives the reason');
      assert.doesNotMatch(result.stderr, /listening on/);
    });
  }
});
