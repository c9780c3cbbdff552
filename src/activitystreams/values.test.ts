// Safe parsing of the platform's counts and timestamps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pickCount, toInt, toTimestamp } from './values.ts';

test('counts parse from numbers and digit strings and never become NaN', () => {
  assert.equal(toInt(12), 12);
  assert.equal(toInt('427682'), 427682);
  for (const bad of ['', 'abc', '1e3x', null, undefined, Number.NaN, Infinity, {}]) assert.equal(toInt(bad), undefined);
});

test('the exact statsV2 string wins over the rounded stats number, which is the fallback', () => {
  assert.equal(pickCount('427682', 427700), 427682);
  assert.equal(pickCount(undefined, 427700), 427700);
  assert.equal(pickCount('n/a', 5), 5);
  assert.equal(pickCount(undefined, undefined), undefined);
});

test('createTime as number or string becomes ISO 8601 UTC with milliseconds', () => {
  assert.equal(toTimestamp(1749265942), '2025-06-07T03:12:22.000Z');
  assert.equal(toTimestamp('1623961812'), '2021-06-17T20:30:12.000Z');
  assert.equal(toTimestamp(0), undefined);
  assert.equal(toTimestamp('soon'), undefined);
});