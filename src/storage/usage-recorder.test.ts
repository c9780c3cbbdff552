// The buffered usage writer: aggregation, the flush interval (mocked timers), close and retries.

import assert from 'node:assert/strict';
import { setImmediate as turn } from 'node:timers/promises';
import { afterEach, beforeEach, mock, test } from 'node:test';
import { createSqliteStore } from './sqlite-store.ts';
import { createUsageRecorder } from './usage-recorder.ts';

type Call = { keyId: string; operation: string; day: string; count: number };

function fakeStore(failures = 0) {
  const calls: Call[] = [];
  let failuresLeft = failures;
  return {
    calls,
    async addUsage(keyId: string, operation: string, at: Date, count = 1) {
      if (failuresLeft-- > 0) throw new Error('database down');
      calls.push({ keyId, operation, day: at.toISOString().slice(0, 10), count });
    },
  };
}

const at = new Date('2030-05-01T10:00:00.000Z');
const nextDay = new Date('2030-05-02T00:00:00.000Z');

beforeEach(() => mock.timers.enable({ apis: ['setInterval'] }));
afterEach(() => mock.timers.reset());

test('records are aggregated per key, UTC day and operation and written once per flush interval', async () => {
  const store = fakeStore();
  const recorder = createUsageRecorder({ store, flushMs: 1000 });
  for (let i = 0; i < 5; i++) recorder.record('k1', 'get_video', at);
  recorder.record('k1', 'get_video', nextDay);
  recorder.record('k1', 'get_user', at, 3);
  recorder.record('k2', 'get_video', at);
  mock.timers.tick(999);
  await turn();
  assert.deepEqual(store.calls, [], 'nothing is written before the interval');
  mock.timers.tick(1);
  await turn();
  assert.deepEqual(store.calls, [
    { keyId: 'k1', operation: 'get_video', day: '2030-05-01', count: 5 },
    { keyId: 'k1', operation: 'get_video', day: '2030-05-02', count: 1 },
    { keyId: 'k1', operation: 'get_user', day: '2030-05-01', count: 3 },
    { keyId: 'k2', operation: 'get_video', day: '2030-05-01', count: 1 },
  ]);
  mock.timers.tick(1000);
  await turn();
  assert.equal(store.calls.length, 4, 'an empty buffer writes nothing');
  await recorder.close();
});

test('close flushes what is buffered and later records are ignored', async () => {
  const store = fakeStore();
  const recorder = createUsageRecorder({ store, flushMs: 1000 });
  recorder.record('k1', 'op', at, 2);
  await recorder.close();
  assert.deepEqual(store.calls, [{ keyId: 'k1', operation: 'op', day: '2030-05-01', count: 2 }]);
  recorder.record('k1', 'op', at);
  mock.timers.tick(5000);
  await turn();
  await recorder.close();
  assert.equal(store.calls.length, 1);
});

test('counts that fail to write are kept and written by the next flush', async () => {
  const store = fakeStore(1);
  const outages: unknown[] = [];
  const recoveries: unknown[] = [];
  const recorder = createUsageRecorder({ store, flushMs: 1000, onOutage: (e) => outages.push(e), onRecovery: (d) => recoveries.push(d) });
  recorder.record('k1', 'op', at, 2);
  await recorder.flush();
  assert.equal(outages.length, 1);
  assert.deepEqual(store.calls, []);
  recorder.record('k1', 'op', at, 1);
  await recorder.flush();
  assert.deepEqual(store.calls, [{ keyId: 'k1', operation: 'op', day: '2030-05-01', count: 3 }]);
  assert.deepEqual(recoveries, [{ droppedRequests: 0 }]);
  await recorder.close();
});

test('a failing store is asked once per flush and the outage is reported once, however many entries wait', async () => {
  let asked = 0;
  const store = { async addUsage() { asked++; throw new Error('database down'); } };
  const outages: unknown[] = [];
  const recorder = createUsageRecorder({ store, onOutage: (e) => outages.push(e) });
  for (const op of ['a', 'b', 'c']) recorder.record('k1', op, at);
  for (let i = 0; i < 3; i++) await recorder.flush();
  assert.equal(asked, 3, 'one attempt per flush, not one per entry');
  assert.equal(outages.length, 1);
  assert.deepEqual(recorder.stats(), { bufferedEntries: 3, droppedRequests: 0 });
  await recorder.close();
});

test('the buffer holds at most entriesMax distinct entries and counts the requests it drops', async () => {
  const store = fakeStore();
  const recorder = createUsageRecorder({ store, entriesMax: 2 });
  for (const op of ['a', 'b', 'c']) recorder.record('k1', op, at);
  recorder.record('k1', 'a', at);
  recorder.record('k1', 'd', at, 4);
  assert.equal(recorder.stats().droppedRequests, 5);
  await recorder.close();
  assert.deepEqual(store.calls.map((c) => [c.operation, c.count]), [['a', 2], ['b', 1]]);
});

test('usage recorded through the recorder lands aggregated in a real store', async () => {
  const store = createSqliteStore({ path: ':memory:' });
  await store.migrate();
  const account = await store.createAccount('acct');
  await store.insertKey({
    id: 'key-1', accountId: account.id, name: 'k', hash: 'h'.repeat(64), prefix: 'rly_abcdefgh',
    expiresAt: null, oauthClientId: null, resource: null,
  });
  const recorder = createUsageRecorder({ store });
  for (let i = 0; i < 100; i++) recorder.record('key-1', 'get_video', at);
  await recorder.close();
  assert.deepEqual(await store.usage({ accountId: account.id }), [
    { keyId: 'key-1', day: '2030-05-01', operation: 'get_video', count: 100 },
  ]);
  await store.close();
});
