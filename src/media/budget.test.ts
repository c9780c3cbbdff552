import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createByteBudget } from './budget.ts';

test('a reservation over what is left is refused and costs nothing; refunds and charges move the balance', async () => {
  const budget = createByteBudget({ bytesPerWindow: 1000, windowSeconds: 3600 });
  assert.deepEqual({ ...(await budget.reserve('a', 600)), resetSeconds: 0 }, { allowed: true, limit: 1000, remaining: 400, resetSeconds: 0 });
  const refused = await budget.reserve('a', 500);
  assert.equal(refused.allowed, false);
  assert.equal(refused.remaining, 400, 'the refused reservation was not counted');
  assert.ok(refused.resetSeconds > 0 && refused.resetSeconds <= 3600);
  await budget.refund('a', 200);
  assert.equal((await budget.reserve('a', 500)).remaining, 100);
  await budget.charge('a', 100);
  assert.equal((await budget.reserve('a', 1)).allowed, false);
  assert.equal((await budget.reserve('b', 1000)).allowed, true, 'each key has its own budget');
});
