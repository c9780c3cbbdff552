// Which failures count against an endpoint's breaker: only the platform's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../errors.ts';
import { UpstreamFailure } from './classify.ts';
import { countsForBreaker } from './resilience.ts';

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
