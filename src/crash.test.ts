// The process's last-resort handlers: unhandled rejections and uncaught exceptions are logged at
// fatal level without secrets, and the process exits 1 once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { installCrashHandlers, scrubSecrets } from './crash.ts';

test('an unhandled rejection and an uncaught exception are logged at fatal level, scrubbed, and exit 1 once', () => {
  const events = new EventEmitter();
  const logged: Array<{ obj: any; msg: string }> = [];
  const exits: number[] = [];
  installCrashHandlers(events as never, { fatal: (obj, msg) => void logged.push({ obj, msg }) }, (code) => void exits.push(code));
  const key = `rly_${'A'.repeat(43)}`;
  events.emit('unhandledRejection', new Error(`connect postgres://reelay:hunter2@db:5432/x failed for ${key}`));
  events.emit('uncaughtException', new TypeError('Bearer abc.def.ghi was refused'));
  assert.deepEqual(logged.map((l) => l.msg), ['unhandled rejection', 'uncaught exception']);
  assert.equal(logged[0].obj.err.type, 'Error');
  const text = JSON.stringify(logged);
  for (const secret of ['hunter2', key, 'abc.def.ghi']) assert.ok(!text.includes(secret), `${secret} leaked`);
  assert.match(logged[0].obj.err.stack, /crash\.test\.ts/, 'the stack is kept for the operator');
  assert.deepEqual(exits, [1]);
});

test('scrubSecrets removes keys, OAuth tokens, Bearer credentials, URL passwords and cookie values', () => {
  const scrubbed = scrubSecrets(
    'rlys_0123456789abcdefghij rlyac_0123456789abcdefghijkl Basic dXNlcjpwYXNz socks5://u:p@proxy:1080 msToken=abc; password=pw',
  );
  for (const secret of ['0123456789abcdefghij', 'dXNlcjpwYXNz', 'u:p@', 'abc;', '=pw']) assert.ok(!scrubbed.includes(secret), scrubbed);
  assert.match(scrubbed, /socks5:\/\/\[redacted\]@proxy:1080/);
});
