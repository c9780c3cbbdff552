// Media downloads through a real `reelay serve` process: a 200 MiB emulated file streams through
// with the emulator's exact bytes while the service's memory stays flat, and a client that leaves
// mid-download stops the platform transfer.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { get, type ClientRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../../emulator/server.ts';
import { createDataset } from '../../emulator/dataset/dataset.ts';
import { renditionFile } from '../../emulator/handlers/cdn.ts';
import { forEachMediaChunk } from '../../emulator/wire/media-bytes.ts';
import { runReelay, startNode, type ServiceNode } from '../scale/processes.ts';

/** Resident and peak resident memory of a process, in bytes (Linux /proc). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

const waitFor = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('a 200 MiB file through a real service process', () => {
  let emulator: Emulator;
  let node: ServiceNode;
  let dataDir: string;
  let key: string;

  before(async () => {
    emulator = await startEmulator({ seed: 1 });
    dataDir = await mkdtemp(join(tmpdir(), 'reelay-media-'));
    const env = {
      REELAY_DATA_DIR: dataDir,
      REELAY_PLATFORM_WEB_ORIGIN: emulator.url,
      REELAY_PLATFORM_WEBCAST_ORIGIN: emulator.url,
      REELAY_IDENTITY_RPS: '1000',
      REELAY_BROWSER: 'off',
    };
    const created = await runReelay(['keys', 'create', '--name', 'media'], env);
    assert.equal(created.code, 0, created.stderr);
    key = created.stdout.trim();
    node = await startNode(env);
  });
  after(async () => {
    await node?.stop();
    await emulator?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** GET through real HTTP, hashing and counting as bytes arrive (nothing is kept). */
  function fetchHashed(path: string, onResponse?: (req: ClientRequest, res: IncomingMessage) => void) {
    return new Promise<{ status: number; bytes: number; sha256: string; headers: IncomingMessage['headers'] }>((resolve, reject) => {
      const req = get(`${node.restUrl}${path}`, { headers: { authorization: `Bearer ${key}` } }, (res) => {
        const hash = createHash('sha256');
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          hash.update(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, sha256: hash.digest('hex'), headers: res.headers }));
        res.on('error', reject);
        onResponse?.(req, res);
      });
      req.on('error', reject);
    });
  }

  it('the whole file arrives with the emulator\'s bytes, and the service\'s memory does not grow with it', async (t) => {
    const { id, bytes } = emulator.manifest.videos.large;
    // Warm up: the video is fetched and cached, the code paths are loaded.
    const warm = await fetchHashed(`/v1/platform/videos/${id}/media?format=normal_540_0`);
    assert.equal(warm.status, 200);
    const before = memoryOf(node.child.pid!);
    const res = await fetchHashed(`/v1/platform/videos/${id}/media`);
    const afterwards = memoryOf(node.child.pid!);
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-length'], String(bytes));
    assert.equal(res.bytes, bytes);
    const expected = createHash('sha256');
    forEachMediaChunk(renditionFile(createDataset(1), id, 0)!, 0, bytes - 1, (chunk) => expected.update(chunk));
    assert.equal(res.sha256, expected.digest('hex'));
    const growth = afterwards.peak - before.rss;
    t.diagnostic(`service RSS ${(before.rss / 1048576).toFixed(1)} MiB before, peak ${(afterwards.peak / 1048576).toFixed(1)} MiB during a ${bytes / 1048576} MiB download`);
    assert.ok(growth < 64 * 1024 * 1024, `peak RSS grew by ${(growth / 1048576).toFixed(1)} MiB while streaming ${bytes / 1048576} MiB`);
  });

  it('a client that goes away mid-download ends the platform transfer', async () => {
    const { id } = emulator.manifest.videos.large;
    const start = emulator.mediaStats();
    await new Promise<void>((resolve, reject) => {
      fetchHashed(`/v1/platform/videos/${id}/media`, (req, res) => {
        let seen = 0;
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen >= 2 * 1024 * 1024) req.destroy();
        });
        res.on('close', () => resolve());
      }).catch(() => resolve());
      setTimeout(() => reject(new Error('the download did not end')), 60_000).unref();
    });
    await waitFor(() => emulator.mediaStats().aborted > start.aborted);
    const stats = emulator.mediaStats();
    assert.equal(stats.started - start.started, 1);
    assert.equal(stats.completed, start.completed, 'the platform transfer did not run to its end');
    assert.ok(stats.bytesSent - start.bytesSent < 100 * 1024 * 1024, `the emulator generated ${stats.bytesSent - start.bytesSent} bytes`);
  });
});
