// `reelay serve` on jemalloc: where the system has libjemalloc2 the process replaces itself once
// (same PID, same stdio) with the library preloaded, says so at start, and still answers and stops
// on SIGTERM; REELAY_ALLOCATOR=system keeps the system's malloc.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { startEmulator, type Emulator } from '../../emulator/server.ts';
import { startService } from '../../bench/lib/service-process.ts';
import { JEMALLOC_PATHS } from '../../src/allocator.ts';

const library = JEMALLOC_PATHS.find((path) => existsSync(path));
if (!library && process.env.CI === 'true') throw new Error('CI=true but libjemalloc2 is missing (apt-get install libjemalloc2)');
const skip = library ? false : 'libjemalloc2 is not installed (apt-get install libjemalloc2): the allocator test cannot run';
if (skip) process.stderr.write(`SKIPPED: ${skip}\n`);

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
