import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Executor } from '../operations/execute.ts';
import type { Operations } from './observe.ts';
import { createRunner, OWNER_GONE_REASON } from './runner.ts';
import type { Watch } from './types.ts';
import { DEFAULT_WEBHOOK_SETTINGS } from './webhooks.ts';

const watch: Watch = {
  id: 'wch_test', owner: 'key:k1', kind: 'video', target: '123', everyMs: 60_000, webhookUrl: null, webhookSecret: null,
  events: ['video.published'], status: 'active', pausedReason: null, failures: 2, lastError: 'upstream_error: x',
  nextRunAt: 100_000, lastRunAt: 40_000, state: null, createdAt: 0, updatedAt: 0,
};

function runnerFor(active: boolean | undefined) {
  const reads: number[] = [];
  const runner = createRunner({
    // Any read of the platform goes through an executor: counting them is counting reads.
    executorFor: (everyMs) => {
      reads.push(everyMs);
      throw new Error('no platform in this test');
    },
    ops: {} as Operations,
    now: () => 100_000,
    random: () => 0,
    pauseAfter: 10,
    webhooks: { ...DEFAULT_WEBHOOK_SETTINGS, allowPrivate: false },
    ...(active === undefined ? {} : { ownerActive: async (owner: string) => owner === 'key:k1' && active }),
  });
  return { runner, reads };
}

test('a watch whose key is gone pauses without reading the platform, keeping its failures and last run', async () => {
  const { runner, reads } = runnerFor(false);
  const outcome = await runner.run(watch);
  assert.deepEqual(reads, []);
  assert.equal(outcome.pausedReason, OWNER_GONE_REASON);
  assert.equal(outcome.snapshot, undefined);
  assert.deepEqual(outcome.deliveries, []);
  assert.equal(outcome.failures, 2);
  assert.equal(outcome.lastError, 'upstream_error: x');
  assert.equal(outcome.at, 40_000);
});

test('a watch whose key is active, or a runner told nothing of owners, reads the platform', async () => {
  for (const active of [true, undefined]) {
    const { runner, reads } = runnerFor(active);
    const outcome = await runner.run(watch);
    assert.deepEqual(reads, [60_000]);
    assert.equal(outcome.pausedReason, undefined);
    assert.equal(outcome.failures, 3, 'the failed read counts');
  }
});
