// The database guard: unreachable → store_unavailable, fail fast while known down, one retry after
// the pause, each outage and recovery logged once, other errors passed through untouched.
import { afterEach, test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../errors.ts';
import { createStoreGuard, isConnectError } from './guard.ts';

afterEach(() => mock.timers.reset());

function recordingLogger() {
  const lines: { level: string; msg: string; details: Record<string, unknown> }[] = [];
  return {
    lines,
    warn: (details: Record<string, unknown>, msg: string) => void lines.push({ level: 'warn', msg, details }),
    info: (details: Record<string, unknown>, msg: string) => void lines.push({ level: 'info', msg, details }),
  };
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432 password=hunter2'), { code: 'ECONNREFUSED' });

test('an unreachable store is store_unavailable with Retry-After, and later calls fail at once without asking it', async () => {
  mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
  const logger = recordingLogger();
  const guard = createStoreGuard({ logger, retryAfterMs: 2000, secrets: ['hunter2'] });
  await assert.rejects(guard.run(async () => { throw refused(); }), (error: AppError) => {
    assert.equal(error.code, 'store_unavailable');
    assert.equal(error.status, 503);
    assert.equal(error.retryAfterSeconds, 2);
    return true;
  });
  let asked = 0;
  for (let i = 0; i < 3; i++) {
    await assert.rejects(guard.run(async () => { asked++; return 1; }), { code: 'store_unavailable' });
  }
  assert.equal(asked, 0, 'no call reaches the store while it is known down');
  assert.equal(guard.isDown(), true);
  assert.equal(logger.lines.length, 1, 'one line per outage');
  assert.doesNotMatch(JSON.stringify(logger.lines), /hunter2/);

  mock.timers.tick(2001);
  assert.equal(await guard.run(async () => { asked++; return 7; }), 7);
  assert.equal(asked, 1);
  assert.equal(guard.isDown(), false);
  assert.deepEqual(logger.lines.map((l) => l.level), ['warn', 'info']);
  assert.equal(guard.outages(), 1);
});

test('an error that is not about reaching the store passes through and does not trip the guard', async () => {
  const guard = createStoreGuard({ logger: recordingLogger() });
  const bug = new Error('column "hash" does not exist');
  await assert.rejects(guard.run(async () => { throw bug; }), (error) => error === bug);
  assert.equal(guard.isDown(), false);
  assert.equal(await guard.run(async () => 'ok'), 'ok');
});

test('connection failures are told apart from answers', () => {
  assert.equal(isConnectError(refused()), true);
  assert.equal(isConnectError(new Error('Connection terminated unexpectedly')), true);
  assert.equal(isConnectError(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })), true);
  assert.equal(isConnectError(Object.assign(new Error('duplicate key value'), { code: '23505' })), false);
});
