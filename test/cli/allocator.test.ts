// `reelay serve` on jemalloc: where the system has libjemalloc2 the process replaces itself once
// (same PID, same stdio) with the library preloaded, says so at start, and still answers and stops
// on SIGTERM; REELAY_ALLOCATOR=system keeps the system's malloc.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../../emulator/server.ts';
import { createKeyWithCli, serviceEnv, startService } from '../../bench/lib/service-process.ts';
import { JEMALLOC_PATHS } from '../../src/allocator.ts';

const library = JEMALLOC_PATHS.find((path) => existsSync(path));
if (!library && process.env.CI === 'true') throw new Error('CI=true but libjemalloc2 is missing (apt-get install libjemalloc2)');
const skip = library ? false : 'libjemalloc2 is not installed (apt-get install libjemalloc2): the allocator test cannot run';
if (skip) process.stderr.write(`SKIPPED: ${skip}\n`);

const CHROMIUM = '/usr/bin/chromium';
const mapsOf = (pid: number) => readFileSync(`/proc/${pid}/maps`, 'utf8');

describe('serve and its memory allocator', { skip }, () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ seed: 1 });
  });
  after(async () => {
    await emulator.close();
  });

  it('runs on jemalloc by default, in the very process that was started', async () => {
    const service = await startService({ emulatorUrl: emulator.url });
    try {
      const pid = service.child.pid as number;
      assert.match(mapsOf(pid), /libjemalloc/);
      assert.match(service.logs(), /Memory allocator: jemalloc \(\//);
      assert.equal((await fetch(`${service.restUrl}/healthz`)).status, 200);
    } finally {
      assert.equal(await service.stop(), '0');
    }
  });

  it('the Chromium it starts does not inherit jemalloc (Chromium aborts with it preloaded)', { skip: existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing` }, async () => {
    const options = { emulatorUrl: emulator.url, dataDir: await mkdtemp(join(tmpdir(), 'reelay-allocator-')), env: { REELAY_BROWSER: 'always', REELAY_CHROMIUM_PATH: CHROMIUM } };
    const key = await createKeyWithCli(serviceEnv(options, options.dataDir));
    const service = await startService(options);
    try {
      assert.match(mapsOf(service.child.pid as number), /libjemalloc/);
      const video = await fetch(`${service.restUrl}/v1/platform/videos/${emulator.manifest.videos.withReplies.id}`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(video.status, 200, await video.text());
    } finally {
      assert.equal(await service.stop(), '0');
    }
  });

  it('REELAY_ALLOCATOR=system keeps the system malloc', async () => {
    const service = await startService({ emulatorUrl: emulator.url, env: { REELAY_ALLOCATOR: 'system' } });
    try {
      assert.doesNotMatch(mapsOf(service.child.pid as number), /libjemalloc/);
      assert.match(service.logs(), /Memory allocator: the system's \(REELAY_ALLOCATOR=system\)/);
    } finally {
      assert.equal(await service.stop(), '0');
    }
  });
});
