// Expected operator mistakes end a reelay command with one clear line on stderr and a non-zero
// exit, never a stack trace: a port in use, PostgreSQL unreachable, a bad faults file, a bad option.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/index.ts';
import { runCli as runProcess } from '../../bench/lib/service-process.ts';
import { capture } from './capture.ts';

let dir: string;
let held: Server;
let heldPort: number;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reelay-operator-'));
  held = createServer();
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
  heldPort = (held.address() as { port: number }).port;
});
after(async () => {
  await new Promise<void>((resolve) => held.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

const baseEnv = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', REELAY_BROWSER: 'off', REELAY_LOG_LEVEL: 'warn' });

function oneLine(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line !== '');
  assert.equal(lines.length, 1, `one line on stderr, got:\n${stderr}`);
  assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
  return lines[0];
}

describe('one line and a non-zero exit', () => {
  it('serve on a port that is in use (EADDRINUSE)', async () => {
    const run = await runProcess(['serve', '--port', String(heldPort), '--mcp-port', '0', '--data-dir', dir], baseEnv(), 60_000);
    assert.equal(run.code, 1);
    assert.match(oneLine(run.stderr), new RegExp(`^reelay serve: port ${heldPort} on 127\\.0\\.0\\.1 is already in use`));
  });

  it('serve with an allocator it does not know (REELAY_ALLOCATOR)', async () => {
    const run = await runProcess(['serve', '--port', '0', '--mcp-port', '0', '--data-dir', dir], { ...baseEnv(), REELAY_ALLOCATOR: 'tcmalloc' }, 60_000);
    assert.equal(run.code, 2);
    assert.equal(oneLine(run.stderr), 'reelay serve: REELAY_ALLOCATOR must be auto, jemalloc or system, got "tcmalloc"');
  });

  it('the tool server port in use stops the REST listener too, and no first key is made unseen', async () => {
    const run = await runProcess(['serve', '--port', '0', '--mcp-port', String(heldPort), '--data-dir', dir], baseEnv(), 60_000);
    assert.equal(run.code, 1);
    assert.match(oneLine(run.stderr), /already in use/);
    const listed = capture();
    await runCli(['keys', 'list', '--data-dir', dir], {}, listed.io);
    assert.equal(listed.out().trim().split('\n').length, 1, `only the header: ${listed.out()}`);
  });

  it('demo with the emulator port in use', async () => {
    const run = await runProcess(['demo', '--port', '0', '--mcp-port', '0', '--emulator-port', String(heldPort), '--data-dir', dir], baseEnv(), 60_000);
    assert.equal(run.code, 1);
    assert.match(oneLine(run.stderr), new RegExp(`^reelay demo: port ${heldPort} on 127\\.0\\.0\\.1 is already in use`));
  });

  it('PostgreSQL unreachable, without the password', async () => {
    const env = { ...baseEnv(), REELAY_DATABASE_URL: 'postgres://reelay:s3cret-pw@127.0.0.1:1/reelay' };
    for (const args of [['keys', 'list'], ['serve', '--port', '0', '--mcp-port', '0']]) {
      const run = await runProcess(args, env, 60_000);
      assert.equal(run.code, 1, args.join(' '));
      assert.match(oneLine(run.stderr), new RegExp(`^reelay ${args[0]}: Cannot connect to PostgreSQL .*REELAY_DATABASE_URL`));
      assert.ok(!`${run.stdout}${run.stderr}`.includes('s3cret-pw'), 'the password is never printed');
    }
  });

  it('a bad faults file: missing, not JSON, or not fault rules', async () => {
    const notJson = join(dir, 'not-json.json');
    const notRules = join(dir, 'not-rules.json');
    await writeFile(notJson, '{ "rules": [');
    await writeFile(notRules, JSON.stringify({ rules: [{ path: '/api/*', probability: 2, kind: 'status_5xx' }] }));
    const cases: [string, RegExp][] = [
      [join(dir, 'missing.json'), /no such file/],
      [notJson, /not JSON/],
      [notRules, /rules\.0\.probability/],
    ];
    for (const [file, why] of cases) {
      const run = capture();
      assert.equal(await runCli(['emulator', '--faults', file], {}, run.io), 1, file);
      const line = oneLine(run.err());
      assert.ok(line.startsWith(`reelay emulator: bad faults file ${file}: `), line);
      assert.match(line, why);
    }
  });

  it('a bad option or option value is a usage error (exit 2)', async () => {
    const cases = [
      ['serve', '--prot', '1'],
      ['emulator', '--port', 'eighty'],
      ['keys', 'list', '--bogus'],
      ['get', '--pretty'],
      ['doctor', '--timeout-seconds', '-1'],
    ];
    for (const args of cases) {
      const run = capture();
      assert.equal(await runCli(args, {}, run.io), 2, args.join(' '));
      assert.match(oneLine(run.err()), new RegExp(`^reelay ${args[0]}: `));
    }
    const badEnv = capture();
    assert.equal(await runCli(['keys', 'list', '--data-dir', dir], { REELAY_PORT: 'abc' }, badEnv.io), 2);
    assert.match(oneLine(badEnv.err()), /REELAY_PORT/);
  });
});
