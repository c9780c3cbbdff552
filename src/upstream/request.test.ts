import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as turn } from 'node:timers/promises';
import { untilAborted } from './request.ts';

/** Collects unhandled rejections while `fn` runs and for two turns of the event loop after it. */
async function unhandledDuring(fn: () => Promise<unknown>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  try {
    await fn().catch(() => undefined);
    await turn();
    await turn();
  } finally {
    process.off('unhandledRejection', listener);
  }
  return seen;
}

test('an attempt aborted before it is awaited leaves no unhandled rejection behind', async () => {
  const controller = new AbortController();
  controller.abort();
  const seen = await unhandledDuring(async () => {
    const work = Promise.reject(new Error('the platform request failed after the abort'));
    await assert.rejects(untilAborted(work, controller.signal), { name: 'AbortError' });
  });
  assert.deepEqual(seen, []);
});

test('an attempt that fails after its caller gave up leaves no unhandled rejection behind', async () => {
  const controller = new AbortController();
  let fail: (error: Error) => void = () => undefined;
  const work = new Promise<never>((_, reject) => (fail = reject));
  const seen = await unhandledDuring(async () => {
    const waiting = untilAborted(work, controller.signal);
    controller.abort();
    await assert.rejects(waiting, { name: 'AbortError' });
    fail(new Error('late failure'));
  });
  assert.deepEqual(seen, []);
});

test('without an abort the work\'s own result and error come through', async () => {
  const signal = new AbortController().signal;
  assert.equal(await untilAborted(Promise.resolve(7), signal), 7);
  await assert.rejects(untilAborted(Promise.reject(new Error('boom')), signal), /boom/);
});
