// Two nodes starting at once on a fresh PostgreSQL schema, each with its own services and pool as
// `reelay serve` builds them: exactly one creates the first API key; the other, and every later
// start, sees it and creates none. Skipped loudly without PostgreSQL and Redis (the shared backing
// helper claims both); under CI=true their absence fails.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createServices, type Services } from '../../src/app.ts';
import { parseConfig } from '../../src/config/config.ts';
import { claimBacking, skipWithoutBacking } from './backing.ts';

const claimed = await claimBacking();

if ('unavailable' in claimed) {
  it('two nodes starting on an empty database create one API key', (t) => {
    skipWithoutBacking(t, 'first-key test', claimed.unavailable);
  });
} else {
  describe('first start of two nodes at once', () => {
    const started: Services[] = [];
    let dataDir: string | undefined;
    after(async () => {
      await Promise.allSettled(started.map((services) => services.close()));
      await claimed.release();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('two nodes starting on an empty database create exactly one API key between them', async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'reelay-first-key-'));
      // The platform is never called: the origin only has to be a valid URL.
      const config = parseConfig({ databaseUrl: claimed.databaseUrl, dataDir, browser: 'off', webOrigin: 'http://127.0.0.1:9' });
      const start = () => createServices(config, { logger: pino({ level: 'silent' }) });
      started.push(...(await Promise.all([start(), start()])));
      const created = await Promise.all(started.map((services) => services.keys.createFirst({ name: 'first' })));
      assert.equal(created.filter((c) => c !== null).length, 1, 'one node created the key, the other saw it');
      assert.equal((await started[1].keys.list()).length, 1);
      started.push(await start());
      assert.equal(await started[2].keys.createFirst({ name: 'first' }), null, 'a restart creates none');
    });
  });
}
