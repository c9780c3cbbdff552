// Which failures count against an endpoint's breaker: only the platform's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../errors.ts';
import { UpstreamFailure } from './classify.ts';
import { CircuitState } from 'cockatiel';
import { breakerStateValue, countsForBreaker, createResilience } from './resilience.ts';
import { resolveUpstreamConfig } from './config.ts';

const failure = (outcome: ConstructorParameters<typeof UpstreamFailure>[0]['outcome'], reason: string) => new UpstreamFailure({ outcome, reason });

test('5xx, resets, timeouts, blocks and 429 count against the breaker', () => {
  for (const f of [
    failure('upstream_error', 'http_503'),
    failure('upstream_error', 'network'),
    failure('upstream_error', 'malformed_json'),
    failure('timeout', 'timeout'),
    failure('blocked', 'empty_200'),
    failure('rate_limited', 'http_429'),
  ]) {
    assert.equal(countsForBreaker(f), true, f.message);
  }
});

test('answers about the content, 4xx provoked by the input, abandoned requests and local errors do not', () => {
  for (const f of [
    failure('not_found', 'user_not_found'),
    failure('private_account', 'private_account'),
    failure('upstream_error', 'http_400'),
    failure('upstream_error', 'http_414'),
    failure('cancelled', 'cancelled'),
    new AppError('invalid_request', 'bad'),
    new Error('bug'),
  ]) {
    assert.equal(countsForBreaker(f), false, f.message);
  }
});

test('breaker states read 0 closed, 1 open (isolated too), 2 half-open for metrics', () => {
  assert.equal(breakerStateValue(CircuitState.Closed), 0);
  assert.equal(breakerStateValue(CircuitState.Open), 1);
  assert.equal(breakerStateValue(CircuitState.Isolated), 1);
  assert.equal(breakerStateValue(CircuitState.HalfOpen), 2);
});

test('breakerStates lists each endpoint called, and an endpoint failing past the threshold opens and is logged', async () => {
  const warnings: object[] = [];
  const config = resolveUpstreamConfig({ breaker: { failureThreshold: 2, halfOpenAfterMs: 60_000 } });
  const resilience = createResilience(config, { warn: (obj) => warnings.push(obj) });
  assert.deepEqual(resilience.breakerStates(), []);
  await resilience.guardRequest('/ok/', async () => 'fine');
  for (let i = 0; i < 2; i += 1) {
    await assert.rejects(resilience.guardRequest('/bad/', async () => {
      throw failure('upstream_error', 'http_503');
    }));
  }
  assert.deepEqual(resilience.breakerStates(), [{ endpoint: '/ok/', state: 0 }, { endpoint: '/bad/', state: 1 }]);
  assert.deepEqual(warnings.map((w) => (w as { endpoint: string }).endpoint), ['/bad/']);
});
