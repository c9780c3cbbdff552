// The real process (`reelay serve`) on an unhandled rejection: it logs one fatal line without
// secrets and exits 1, and the harness every process-level suite uses fails when that happens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { startService } from '../../bench/lib/service-process.ts';

// Loaded before main.ts: rejects a promise nobody handles when the test sends SIGUSR2, i.e. only
// once the service is listening (an event, not a timer). The password is assembled at run time,
// because stack frames quote this module's URL, which is its source.
const REJECT_ON_SIGNAL = `data:text/javascript,${encodeURIComponent(
  "process.on('SIGUSR2', () => { Promise.reject(new Error('lost connection to postgres://reelay:' + 'hun' + 'ter2' + '@db/x')); });",
)}`;

test('an unhandled rejection in reelay serve is logged at fatal level without secrets, exits 1, and fails the harness', async () => {
  const service = await startService({ emulatorUrl: 'http://127.0.0.1:9', nodeFlags: ['--import', REJECT_ON_SIGNAL] });
  const exited = once(service.child, 'exit');
  service.child.kill('SIGUSR2');
  const [code] = (await exited) as [number | null];
  assert.equal(code, 1);
  const fatal = service.fatalLogs();
  assert.equal(fatal.length, 1);
  const line = JSON.parse(fatal[0]) as { msg: string; err: { message: string } };
  assert.equal(line.msg, 'unhandled rejection');
  assert.match(line.err.message, /lost connection to postgres:\/\/\[redacted\]@db\/x/);
  assert.ok(!service.logs().includes('hunter2'), 'the password appears nowhere in the logs');
  await assert.rejects(service.stop(), /logged 1 fatal error/);
  await rm(service.dataDir, { recursive: true, force: true });
});
