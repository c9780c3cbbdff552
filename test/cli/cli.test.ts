// The reelay command: keys create prints only the key, list/revoke manage it, export pages a
// collection to NDJSON and resumes from the cursor it prints.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/index.ts';
import { startEmulator, type Emulator } from '../../emulator/server.ts';

function capture() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => (out += chunk));
  stderr.on('data', (chunk) => (err += chunk));
  return { io: { stdout, stderr }, out: () => out, err: () => err };
}

let dir: string;
let emulator: Emulator;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reelay-cli-'));
  emulator = await startEmulator({ seed: 1 });
});
after(async () => {
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

describe('reelay keys', () => {
  it('create prints the key alone; list shows it without the secret; revoke by prefix ends it', async () => {
    const created = capture();
    assert.equal(await runCli(['keys', 'create', '--name', 'ci', '--data-dir', dir], {}, created.io), 0);
    const key = created.out().trim();
    assert.match(created.out(), /^rly_[A-Za-z0-9_-]{43}\n$/);
    const listed = capture();
    assert.equal(await runCli(['keys', 'list', '--data-dir', dir], {}, listed.io), 0);
    assert.match(listed.out(), /ci/);
    assert.ok(!listed.out().includes(key), 'the secret is never listed');
    const revoked = capture();
    assert.equal(await runCli(['keys', 'revoke', key.slice(0, 12), '--data-dir', dir], {}, revoked.io), 0);
    const again = capture();
    await runCli(['keys', 'list', '--data-dir', dir], {}, again.io);
    assert.match(again.out(), /\d{4}-\d\d-\d\dT[\d:]+Z\s+-?\s*$/m, 'the revocation time is shown');
  });

  it('--help lists every command and an unknown command fails', async () => {
    const help = capture();
    assert.equal(await runCli(['--help'], {}, help.io), 0);
    for (const command of ['serve', 'demo', 'emulator', 'keys create', 'keys list', 'keys revoke', 'keys usage', 'export']) {
      assert.ok(help.out().includes(command), command);
    }
    const bad = capture();
    assert.equal(await runCli(['frobnicate'], {}, bad.io), 2);
  });
});

describe('reelay export', () => {
  it('writes one AS2 item per line, stops at --max and resumes from the printed cursor', async () => {
    const env = {
      REELAY_PLATFORM_WEB_ORIGIN: emulator.url,
      REELAY_PLATFORM_WEBCAST_ORIGIN: emulator.url,
      REELAY_IDENTITY_RPS: '1000',
      REELAY_LOG_LEVEL: 'silent',
    };
    const out = join(dir, 'videos.ndjson');
    const path = `/v1/platform/users/${emulator.manifest.users.public}/videos`;
    const first = capture();
    assert.equal(await runCli(['export', path, '--max', '40', '--out', out, '--data-dir', dir], env, first.io), 0);
    const lines = (await readFile(out, 'utf8')).trim().split('\n');
    assert.equal(lines.length, 40);
    for (const line of lines) assert.equal(JSON.parse(line).type, 'Video');
    const resume = /--from (\S+)/.exec(first.err());
    assert.ok(resume, first.err());
    const second = capture();
    assert.equal(await runCli(['export', path, '--from', resume[1], '--max', '5', '--out', out, '--data-dir', dir], env, second.io), 0);
    const all = (await readFile(out, 'utf8')).trim().split('\n').map((line) => JSON.parse(line).id);
    assert.equal(all.length, 45);
    assert.equal(new Set(all).size, 45, 'the resumed export continues without repeating');
  });

  it('refuses a path that is not a collection', async () => {
    const bad = capture();
    assert.equal(await runCli(['export', '/v1/platform/videos/123', '--data-dir', dir], {}, bad.io), 2);
  });
});
