// In-process single-flight: one call per key among concurrent callers, failures shared, then forgotten.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLocalCoalescer } from './coalescer.ts';

test('concurrent runs of one key call fn once and share its value', async () => {
  const coalescer = createLocalCoalescer();
  const gate = Promise.withResolvers<string>();
  let calls = 0;
  const runs = Array.from({ length: 100 }, () => coalescer.run('k', () => {
    calls += 1;
    return gate.promise;
  }));
  gate.resolve('value');
  assert.deepEqual(new Set(await Promise.all(runs)), new Set(['value']));
  assert.equal(calls, 1);
});

test('concurrent runs share a rejection, and a later run starts afresh', async () => {
  const coalescer = createLocalCoalescer();
  const gate = Promise.withResolvers<string>();
  let calls = 0;
  const fn = () => {
    calls += 1;
    return gate.promise;
  };
  const runs = [coalescer.run('k', fn), coalescer.run('k', fn)];
  gate.reject(new Error('boom'));
  for (const run of runs) await assert.rejects(run, /boom/);
  assert.equal(await coalescer.run('k', async () => 'again'), 'again');
  assert.equal(calls, 1);
});

test('different keys do not wait for each other', async () => {
  const coalescer = createLocalCoalescer();
  const never = Promise.withResolvers<string>();
  void coalescer.run('slow', () => never.promise);
  assert.equal(await coalescer.run('fast', async () => 'done'), 'done');
  never.resolve('late');
});

test('a caller that aborts stops waiting with its reason while the shared work goes on for the others', async () => {
  const coalescer = createLocalCoalescer();
  const gate = Promise.withResolvers<string>();
  let workSignal: AbortSignal | undefined;
  const first = new AbortController();
  const second = new AbortController();
  const a = coalescer.run('k', (signal) => ((workSignal = signal), gate.promise), undefined, first.signal);
  const b = coalescer.run('k', () => gate.promise, undefined, second.signal);
  const reason = new Error('deadline of the first caller');
  first.abort(reason);
  await assert.rejects(a, (error) => error === reason);
  assert.equal(workSignal?.aborted, false, 'the second caller still wants the work');
  gate.resolve('value');
  assert.equal(await b, 'value');
});

test('the shared work is aborted once every caller has aborted, and a later caller starts afresh', async () => {
  const coalescer = createLocalCoalescer();
  let calls = 0;
  const signals: AbortSignal[] = [];
  const fn = (signal: AbortSignal) => {
    calls += 1;
    signals.push(signal);
    return new Promise<string>((resolve, reject) => {
      if (calls > 1) resolve('fresh');
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
  const callers = [new AbortController(), new AbortController()];
  const runs = callers.map((c) => coalescer.run('k', fn, undefined, c.signal));
  for (const c of callers) c.abort(new Error('gone'));
  for (const run of runs) await assert.rejects(run, /gone/);
  assert.equal(signals[0].aborted, true);
  assert.equal(await coalescer.run('k', fn, undefined, new AbortController().signal), 'fresh');
  assert.equal(calls, 2);
});

test('a caller without a signal (a background refresh) keeps the shared work alive', async () => {
  const coalescer = createLocalCoalescer();
  const gate = Promise.withResolvers<string>();
  let workSignal: AbortSignal | undefined;
  const background = coalescer.run('k', (signal) => ((workSignal = signal), gate.promise));
  const caller = new AbortController();
  const waiting = coalescer.run('k', () => gate.promise, undefined, caller.signal);
  caller.abort(new Error('gone'));
  await assert.rejects(waiting, /gone/);
  assert.equal(workSignal?.aborted, false);
  gate.resolve('value');
  assert.equal(await background, 'value');
});

test('a caller that joins running work is reported with the id its starter gave, and a starter is not', async () => {
  const joins: Array<{ key: string; scope: string; startedBy: string | undefined }> = [];
  let starts = 0;
  const coalescer = createLocalCoalescer({ onStart: () => `request-${++starts}`, onJoin: (join) => joins.push(join) });
  const gate = Promise.withResolvers<string>();
  const runs = [coalescer.run('k', () => gate.promise), coalescer.run('k', () => gate.promise), coalescer.run('other', async () => 'x')];
  gate.resolve('v');
  await Promise.all(runs);
  assert.deepEqual(joins, [{ key: 'k', scope: 'process', startedBy: 'request-1' }]);
  assert.equal(starts, 2, 'k and other each started once');
  await coalescer.run('k', async () => 'again');
  assert.equal(joins.length, 1, 'finished work is not joined');
});
