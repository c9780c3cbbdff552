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
