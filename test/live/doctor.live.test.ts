// `npm run test:live`: the doctor's checks against the real platform. Never part of `npm test` or
// CI. Where the platform cannot be reached from this machine the tests are skipped with a notice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/index.ts';

const ORIGIN = new URL(process.env.REELAY_PLATFORM_WEB_ORIGIN ?? 'https://www.tiktok.com');

/** A TCP connection to the platform's web host within five seconds, or the reason there is none. */
function reachable(): Promise<true | string> {
  return new Promise((resolve) => {
    const socket = connect({ host: ORIGIN.hostname, port: Number(ORIGIN.port || 443), timeout: 5_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve('no connection within 5 s');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

const reach = await reachable();
const skip = reach === true ? false : `the platform (${ORIGIN.host}) cannot be reached from here: ${reach}`;
if (skip) console.warn(`SKIPPING live tests: ${skip}`);

test('every operation works against the real platform', { skip, timeout: 120_000 }, async () => {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  stdout.on('data', (chunk) => (out += chunk));
  stderr.resume();
  const code = await runCli(['doctor', '--json'], process.env, { stdout, stderr });
  const report = JSON.parse(out);
  for (const row of report.rows) assert.equal(row.status, 'ok', `${row.operation}: ${row.hint ?? ''} (route ${row.route}, via ${row.via})`);
  assert.equal(code, 0);
});
