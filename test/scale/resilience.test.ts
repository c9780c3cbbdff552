// Resilience through the real REST service, proven with the emulator's counters: the per-endpoint
// breaker opens under an outage and then fails fast, recovers after its half-open pause, and a
// saturated bulkhead answers 503 at once. The pause is crossed by moving Date, not by waiting.
import { after, before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { startScaleStack, type Answer, type ScaleStack } from './harness.ts';

const ITEM_DETAIL = '/api/item/detail/';

function totalRequests(stack: ScaleStack): number {
  return Object.values(stack.emulator.stats()).reduce((sum, n) => sum + n, 0);
}

async function videoIds(stack: ScaleStack, username: string, count: number): Promise<string[]> {
  const answer = await stack.get(`/v1/platform/users/${username}/videos?count=${count}&projection_preset=minimal`);
  assert.equal(answer.status, 200, answer.body);
  return answer.json.data.orderedItems.map((item: any) => String(item.internalId));
}

function assertBlocked(answer: Answer): void {
  assert.equal(answer.status, 503, answer.body);
  assert.equal(answer.json.code, 'upstream_blocked');
  assert.ok(Number(answer.headers['retry-after']) >= 1, `Retry-After ${answer.headers['retry-after']}`);
}

describe('circuit breaker per platform endpoint', () => {
  let stack: ScaleStack;
  let ids: string[];
  before(async () => {
    stack = await startScaleStack();
    ids = await videoIds(stack, (stack.emulator.manifest as any).users.manyVideos, 20);
  });
  after(() => {
    mock.timers.reset();
    return stack.close();
  });

  it('opens under a 5xx outage, then answers 503 at once without asking the platform', async () => {
    stack.emulator.setFaults({ rules: [{ path: '*', probability: 1, kind: 'status_5xx', status: 500 }] });
    // Eight distinct videos with retries: more consecutive failures than the threshold (10).
    const failing = await Promise.all(ids.slice(0, 8).map((id) => stack.get(`/v1/platform/videos/${id}`)));
    for (const answer of failing) assert.ok(answer.status === 502 || answer.status === 503, answer.body);
    assert.ok(stack.count(ITEM_DETAIL) >= 10, `${stack.count(ITEM_DETAIL)} item requests before opening`);

    const before = totalRequests(stack);
    for (const id of ids.slice(8, 12)) assertBlocked(await stack.get(`/v1/platform/videos/${id}`));
    assert.equal(totalRequests(stack), before, 'an open breaker sends nothing to the platform');

    // The platform is back, but the breaker keeps failing fast until its pause has passed.
    stack.emulator.setFaults({ rules: [] });
    assertBlocked(await stack.get(`/v1/platform/videos/${ids[12]}`));
    assert.equal(totalRequests(stack), before);
  });

  it('after the half-open pause one trial request goes through and closes it again', async () => {
    const before = stack.count(ITEM_DETAIL);
    // The default pause is 30 s; Date is moved past it (identities and the emulator move with it).
    mock.timers.enable({ apis: ['Date'], now: Date.now() + 31_000 });
    try {
      const trial = await stack.get(`/v1/platform/videos/${ids[13]}`);
      assert.equal(trial.status, 200, trial.body);
      assert.equal(stack.count(ITEM_DETAIL) - before, 1, 'one trial request');
    } finally {
      mock.timers.reset();
    }
    const after = await Promise.all(ids.slice(14, 17).map((id) => stack.get(`/v1/platform/videos/${id}`)));
    assert.deepEqual(after.map((a) => a.status), [200, 200, 200]);
    assert.equal(stack.count(ITEM_DETAIL) - before, 4, 'closed again: every request reaches the platform');
  });
});

describe('bulkhead', () => {
  let stack: ScaleStack;
  before(async () => {
    // One platform call at a time, one waiting: the third concurrent one has no room.
    stack = await startScaleStack({ config: { maxConcurrent: '1' } });
  });
  after(() => stack.close());

  it('a saturated process answers 503 upstream_blocked with Retry-After at once', async () => {
    const m: any = stack.emulator.manifest;
    const ids = await videoIds(stack, m.users.manyVideos, 3);
    stack.emulator.setFaults({ rules: [{ path: ITEM_DETAIL, probability: 1, kind: 'latency', latencyMs: 300 }] });
    try {
      const answers = await Promise.all(ids.map((id) => stack.get(`/v1/platform/videos/${id}`)));
      const statuses = answers.map((a) => a.status).sort();
      assert.deepEqual(statuses, [200, 200, 503]);
      assertBlocked(answers.find((a) => a.status === 503) as Answer);
    } finally {
      stack.emulator.setFaults({ rules: [] });
    }
    assert.equal(stack.count(ITEM_DETAIL), 2, 'the rejected call never reached the platform');
  });
});
