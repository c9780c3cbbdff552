// compose.yaml is a valid Compose file: checked by Debian's docker-compose (`apt-get install
// docker-compose`, no network needed), which must also refuse a broken copy. Skipped loudly where
// docker-compose is not installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;

async function composeBinary(): Promise<string | undefined> {
  try {
    await run('docker-compose', ['version'], { timeout: 30_000 });
    return 'docker-compose';
  } catch {
    return undefined;
  }
}

const binary = await composeBinary();
if (!binary) console.warn('SKIPPED compose.yaml validation: docker-compose is not installed (apt-get install docker-compose)');

test('docker-compose accepts compose.yaml (two reelay nodes, PostgreSQL, Redis) and refuses a broken copy', { skip: !binary && 'docker-compose is not installed' }, async () => {
  const config = await run(binary as string, ['-f', join(ROOT, 'compose.yaml'), 'config'], { cwd: ROOT, timeout: 60_000 });
  for (const service of ['reelay-1', 'reelay-2', 'postgres', 'redis']) assert.match(config.stdout, new RegExp(`^  ${service}:$`, 'm'), service);
  assert.match(config.stdout, /REELAY_DATABASE_URL: postgres:\/\/reelay:reelay@postgres:5432\/reelay/);
  assert.match(config.stdout, /REELAY_REDIS_URL: redis:\/\/redis:6379\/0/);
  const dir = await mkdtemp(join(tmpdir(), 'reelay-compose-'));
  try {
    const broken = (await readFile(join(ROOT, 'compose.yaml'), 'utf8')).replace('    restart: unless-stopped\n    environment:\n      POSTGRES_USER', '    restart: unless-stopped\n    helthcheck: {}\n    environment:\n      POSTGRES_USER');
    assert.ok(broken.includes('helthcheck'));
    await writeFile(join(dir, 'compose.yaml'), broken);
    await assert.rejects(run(binary as string, ['-f', join(dir, 'compose.yaml'), 'config', '-q'], { cwd: dir, timeout: 60_000 }), /helthcheck/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
