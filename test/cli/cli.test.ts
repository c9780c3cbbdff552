// The reelay command: --version and per-command --help, keys (list shows what revoke takes), get on
// platform URLs, and export (NDJSON alone on stdout, retries with backoff, a resume command that
// repeats every option).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/index.ts';
import { COMMAND_HELP } from '../../src/cli/usage.ts';
import { runExport, progressTotal, backoffMs, resumeCommand } from '../../src/cli/export.ts';
import { matchPlatformUrl } from '../../src/cli/get.ts';
import { startEmulator, type Emulator } from '../../emulator/server.ts';
import { runCli as runProcess } from '../../bench/lib/service-process.ts';
import { capture } from './capture.ts';

let dir: string;
let emulator: Emulator;
let env: Record<string, string>;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reelay-cli-'));
  emulator = await startEmulator({ seed: 1 });
  env = {
    REELAY_PLATFORM_WEB_ORIGIN: emulator.url,
    REELAY_PLATFORM_WEBCAST_ORIGIN: emulator.url,
    REELAY_IDENTITY_RPS: '1000',
    REELAY_BROWSER: 'off',
    REELAY_LOG_LEVEL: 'silent',
  };
});
after(async () => {
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

describe('reelay --version and --help', () => {
  it('--version prints the version of package.json alone', async () => {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const run = capture();
      assert.equal(await runCli([flag], {}, run.io), 0);
      assert.equal(run.out(), `${pkg.version}\n`);
    }
  });

  it('every command answers --help with its own usage on stdout, exit 0, without running', async () => {
    for (const command of ['serve', 'demo', 'emulator', 'keys', 'export', 'get', 'signin-link', 'doctor']) {
      const run = capture();
      // --data-dir points nowhere writable: a command that ran instead of helping would fail.
      assert.equal(await runCli([command, '--help', '--data-dir', '/proc/reelay-none'], {}, run.io), 0, command);
      assert.equal(run.out(), COMMAND_HELP[command]);
      assert.match(run.out(), new RegExp(`^Usage: reelay ${command}\\b`), command);
      assert.equal(run.err(), '');
    }
    const sub = capture();
    assert.equal(await runCli(['keys', 'revoke', '-h'], {}, sub.io), 0);
    assert.match(sub.out(), /keys revoke ID\|PREFIX/);
  });

  it('--help lists every command and an unknown command fails with one line', async () => {
    const help = capture();
    assert.equal(await runCli(['--help'], {}, help.io), 0);
    for (const command of ['serve', 'demo', 'emulator', 'keys create', 'keys list', 'keys revoke', 'keys usage', 'export', 'get', 'doctor']) {
      assert.ok(help.out().includes(command), command);
    }
    const bad = capture();
    assert.equal(await runCli(['frobnicate'], {}, bad.io), 2);
    assert.equal(bad.err().trim().split('\n').length, 1);
  });
});

describe('reelay keys', () => {
  it('create prints the key alone; the PREFIX that list shows is what revoke accepts', async () => {
    const created = capture();
    assert.equal(await runCli(['keys', 'create', '--name', 'ci', '--data-dir', dir], {}, created.io), 0);
    const key = created.out().trim();
    assert.match(created.out(), /^rly_[A-Za-z0-9_-]{43}\n$/);
    const listed = capture();
    assert.equal(await runCli(['keys', 'list', '--data-dir', dir], {}, listed.io), 0);
    assert.ok(!listed.out().includes(key), 'the secret is never listed');
    const [header, ...rows] = listed.out().trim().split('\n');
    const columns = header.split(/\s{2,}/);
    const row = rows.map((r) => r.split(/\s{2,}/)).find((cells) => cells[columns.indexOf('NAME')] === 'ci');
    assert.ok(row, listed.out());
    const prefix = row[columns.indexOf('PREFIX')];
    assert.ok(key.startsWith(prefix) && prefix.length > 4, `${prefix} is a prefix of the key`);
    const revoked = capture();
    assert.equal(await runCli(['keys', 'revoke', prefix, '--data-dir', dir], {}, revoked.io), 0, revoked.err());
    const again = capture();
    await runCli(['keys', 'list', '--data-dir', dir], {}, again.io);
    assert.match(again.out(), /\d{4}-\d\d-\d\dT[\d:]+Z\s+-?\s*$/m, 'the revocation time is shown');
  });

  it('revoke also takes a prefix pasted with the ellipsis older listings showed', async () => {
    const created = capture();
    await runCli(['keys', 'create', '--name', 'pasted', '--data-dir', dir], {}, created.io);
    const revoked = capture();
    assert.equal(await runCli(['keys', 'revoke', `${created.out().trim().slice(0, 12)}…`, '--data-dir', dir], {}, revoked.io), 0, revoked.err());
  });
});

describe('reelay get', () => {
  it('maps video, photo, user, live and tag URLs to their operations and refuses others', () => {
    const web = 'https://www.tiktok.com';
    assert.deepEqual(matchPlatformUrl('https://www.tiktok.com/@user/video/123?is_from_webapp=1', web), { operation: 'video', params: { videoId: '123' } });
    assert.deepEqual(matchPlatformUrl('https://m.tiktok.com/@user/photo/456', web), { operation: 'video', params: { videoId: '456' } });
    assert.deepEqual(matchPlatformUrl('https://www.tiktok.com/@user', web), { operation: 'user', params: { username: 'user' } });
    assert.deepEqual(matchPlatformUrl('https://tiktok.com/@user/live', web), { operation: 'live', params: { username: 'user' } });
    assert.deepEqual(matchPlatformUrl('https://www.tiktok.com/tag/cats', web), { operation: 'tagVideos', params: { tagName: 'cats' } });
    assert.deepEqual(matchPlatformUrl('http://127.0.0.1:9000/@u', 'http://127.0.0.1:9000'), { operation: 'user', params: { username: 'u' } });
    for (const bad of ['https://example.com/@user', 'https://www.tiktok.com/@user/video/abc', 'https://www.tiktok.com/explore', 'not a url', 'ftp://www.tiktok.com/@u']) {
      assert.equal(matchPlatformUrl(bad, web), undefined, bad);
    }
  });

  it('prints the video a URL names as one line of JSON, the same object REST serves', async () => {
    const video = emulator.manifest.videos.withReplies.id;
    const run = capture();
    const url = `https://www.tiktok.com/@${emulator.manifest.users.public}/video/${video}`;
    assert.equal(await runCli(['get', url, '--data-dir', dir], env, run.io), 0, run.err());
    const lines = run.out().trim().split('\n');
    assert.equal(lines.length, 1);
    const data = JSON.parse(lines[0]);
    assert.equal(data.type, 'Video');
    assert.equal(data.internalId, video);
    assert.ok(Array.isArray(data['@context']));
  });

  it('a user who is not live ends in one line naming not_live and exit 1; a bad URL is a usage error', async () => {
    const offAir = capture();
    assert.equal(await runCli(['get', `https://www.tiktok.com/@${emulator.manifest.users.notLive}/live`, '--data-dir', dir], env, offAir.io), 1);
    assert.match(offAir.err(), /^reelay get: not_live: .*\n$/);
    assert.equal(offAir.out(), '');
    const bad = capture();
    assert.equal(await runCli(['get', 'https://example.com/watch?v=1', '--data-dir', dir], env, bad.io), 2);
    assert.equal(bad.err().trim().split('\n').length, 1);
  });
});

describe('reelay export', () => {
  it('writes one AS2 item per line, stops at --max and resumes from the printed cursor', async () => {
    const out = join(dir, 'videos.ndjson');
    const path = `/v1/platform/users/${emulator.manifest.users.public}/videos`;
    const first = capture();
    assert.equal(await runCli(['export', path, '--max', '40', '--out', out, '--data-dir', dir], env, first.io), 0);
    const lines = (await readFile(out, 'utf8')).trim().split('\n');
    assert.equal(lines.length, 40);
    for (const line of lines) assert.equal(JSON.parse(line).type, 'Video');
    const resume = /--from (\S+)/.exec(first.err());
    assert.ok(resume, first.err());
    assert.match(first.err(), /--max 40 /, 'the next batch is as large as the first');
    const second = capture();
    assert.equal(await runCli(['export', path, '--from', resume[1], '--max', '5', '--out', out, '--data-dir', dir], env, second.io), 0);
    const all = (await readFile(out, 'utf8')).trim().split('\n').map((line) => JSON.parse(line).id);
    assert.equal(all.length, 45);
    assert.equal(new Set(all).size, 45, 'the resumed export continues without repeating');
  });

  it('as a process, stdout carries only JSON lines while its logs go to stderr', async () => {
    const path = `/v1/platform/users/${emulator.manifest.users.manyVideos}/videos`;
    const run = await runProcess(['export', path, '--max', '45', '--data-dir', dir], { PATH: process.env.PATH ?? '', ...env, REELAY_LOG_LEVEL: 'info', REELAY_BROWSER: 'auto' }, 60_000);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.split('\n');
    assert.equal(lines.pop(), '', 'stdout ends with a newline');
    assert.equal(lines.length, 45);
    for (const line of lines) assert.equal(JSON.parse(line).type, 'Video');
    assert.match(run.stderr, /"level":30/, 'the info logs were written, to stderr');
    assert.match(run.stderr, /exported 45 items/);
  });

  it('retries a failed page with backoff and goes on', async () => {
    emulator.setFaults({ rules: [{ path: '*', probability: 1, kind: 'status_5xx', status: 503 }] });
    const delays: number[] = [];
    const sleep = async (ms: number) => {
      delays.push(ms);
      emulator.setFaults({ rules: [] });
    };
    const run = capture();
    const path = `/v1/platform/users/${emulator.manifest.users.public}/videos`;
    try {
      assert.equal(await runExport([path, '--max', '10', '--data-dir', dir], env, run.io, { sleep }), 0, run.err());
    } finally {
      emulator.setFaults({ rules: [] });
    }
    assert.deepEqual(delays, [2_000]);
    assert.equal(run.out().trim().split('\n').length, 10);
    assert.match(run.err(), /page failed \(upstream_\w+\), retry 1 of 4 in 2 s/);
  });

  it('gives up after --retries and prints a resume command that repeats every option', async () => {
    emulator.setFaults({ rules: [{ path: '*', probability: 1, kind: 'status_5xx', status: 503 }] });
    const delays: number[] = [];
    const run = capture();
    const path = `/v1/platform/users/${emulator.manifest.users.public}/videos?order=popular`;
    try {
      const code = await runExport([path, '--max', '10', '--retries', '2', '--data-dir', dir], env, run.io, { sleep: async (ms) => void delays.push(ms) });
      assert.equal(code, 1);
    } finally {
      emulator.setFaults({ rules: [] });
    }
    assert.deepEqual(delays, [2_000, 4_000]);
    assert.equal(run.out(), '');
    const hint = /resume with.*?: (.*)\n/.exec(run.err());
    assert.ok(hint, run.err());
    assert.equal(hint[1], `reelay export '${path}' --retries 2 --data-dir ${dir} --max 10 --from 0`);
  });

  it('refuses a path that is not a collection, and bad numbers, with one line and exit 2', async () => {
    for (const args of [['/v1/platform/videos/123'], ['/v1/platform/users/x/videos', '--max', '0'], ['/v1/platform/users/x/videos', '--retries', 'many'], ['/v1/platform/users/x/videos', '--nope']]) {
      const bad = capture();
      assert.equal(await runCli(['export', ...args, '--data-dir', dir], {}, bad.io), 2, args.join(' '));
      assert.equal(bad.err().trim().split('\n').length, 1, bad.err());
      assert.equal(bad.out(), '');
    }
  });
});

describe('export arithmetic', () => {
  it('the progress total is --max, or the collection size from its start, and never below what was written', () => {
    assert.equal(progressTotal({ max: 40, totalItems: 1000, resumed: false, written: 0 }), 40);
    assert.equal(progressTotal({ max: 40, totalItems: 12, resumed: false, written: 0 }), 12);
    assert.equal(progressTotal({ max: Infinity, totalItems: 1000, resumed: false, written: 30 }), 1000);
    assert.equal(progressTotal({ max: Infinity, totalItems: 1000, resumed: true, written: 30 }), undefined);
    assert.equal(progressTotal({ max: 50, totalItems: 1000, resumed: true, written: 30 }), 50);
    assert.equal(progressTotal({ max: Infinity, totalItems: 20, resumed: false, written: 35 }), 35);
  });

  it('backoff doubles from 2 s, honours Retry-After and is capped at a minute', () => {
    assert.deepEqual([1, 2, 3, 4].map((n) => backoffMs(n, undefined)), [2_000, 4_000, 8_000, 16_000]);
    assert.equal(backoffMs(1, 30), 30_000);
    assert.equal(backoffMs(10, undefined), 60_000);
    assert.equal(backoffMs(1, 3600), 60_000);
  });

  it('the resume command quotes what a shell would split', () => {
    assert.equal(
      resumeCommand('/v1/platform/users/a b/videos?x=1&y=2', { out: "it's.ndjson" }, 'c1', 5),
      `reelay export '/v1/platform/users/a b/videos?x=1&y=2' --out 'it'\\''s.ndjson' --max 5 --from c1`,
    );
  });
});
