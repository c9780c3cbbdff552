// `reelay doctor`: every operation against the emulator is ok (exit 0); against an address where
// nothing listens every row carries the unreachable hint and the exit status is 1.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../src/cli/index.ts';
import { startEmulator, type Emulator } from '../../emulator/server.ts';
import { freePort } from '../helpers/ports.ts';
import { capture } from './capture.ts';

const ENV = { REELAY_BROWSER: 'off' };
let emulator: Emulator;
before(async () => {
  emulator = await startEmulator({ seed: 2 });
});
after(() => emulator.close());

test('against the emulator every operation works, each with the route that answered', async () => {
  const run = capture();
  const code = await runCli(['doctor', '--origin', emulator.url, '--json'], ENV, run.io);
  const report = JSON.parse(run.out());
  assert.equal(code, 0, run.out());
  assert.equal(report.ok, true);
  assert.equal(report.rows.length, 12);
  for (const row of report.rows) {
    assert.equal(row.status, 'ok', `${row.operation}: ${row.hint}`);
    assert.notEqual(row.route, '-', row.operation);
  }
  const byName = Object.fromEntries(report.rows.map((r: { operation: string }) => [r.operation, r]));
  assert.match(byName.live.route, /\/api-live\/user\/room\//);
  assert.match(byName.userVideos.via, /^signed \(web-2026\)$/);
  assert.ok(byName.replies.items > 0, 'a comment with replies was found');
});

test('the table names the fallback route when signed lists are refused', async () => {
  emulator.setFaults({ rules: [{ path: '/api/post/item_list/', probability: 1, kind: 'refuse_native' }] });
  try {
    const run = capture();
    const code = await runCli(['doctor', '--origin', emulator.url], ENV, run.io);
    assert.equal(code, 0, run.out());
    const videos = run.out().split('\n').find((line) => line.startsWith('userVideos'));
    assert.match(videos ?? '', /\/api\/creator\/item_list\/#unsigned\s+unsigned/);
    assert.match(run.out(), /all 12 operations work/);
  } finally {
    emulator.setFaults({ rules: [] });
  }
});

test('where nothing listens, every row says the platform cannot be reached and the exit status is 1', async () => {
  const origin = `http://127.0.0.1:${await freePort()}`;
  const run = capture();
  const code = await runCli(['doctor', '--origin', origin, '--json'], ENV, run.io);
  assert.equal(code, 1);
  const report = JSON.parse(run.out());
  assert.equal(report.rows.length, 12);
  for (const row of report.rows) {
    assert.equal(row.ok, false);
    assert.match(row.hint, /cannot reach the platform: check egress or REELAY_PROXIES/, row.operation);
  }
  assert.equal(run.err().match(/cannot reach the platform/g)?.length, 1, 'the error log appears once for the episode');
});

test('bad flags are a usage error', async () => {
  const run = capture();
  assert.equal(await runCli(['doctor', '--nope'], ENV, run.io), 2);
  assert.match(run.err(), /^reelay doctor: .*\(reelay doctor --help\)\n$/);
  assert.equal(await runCli(['doctor', '--timeout-seconds', 'soon'], ENV, capture().io), 2);
});
