import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDurationMs, parseDurationMs } from './duration.ts';

test('durations parse to milliseconds and print back in their largest exact unit', () => {
  assert.equal(parseDurationMs('15m'), 900_000);
  assert.equal(parseDurationMs('1s'), 1000);
  assert.equal(parseDurationMs('250ms'), 250);
  assert.equal(parseDurationMs('7d'), 604_800_000);
  assert.equal(formatDurationMs(900_000), '15m');
  assert.equal(formatDurationMs(90_000), '90s');
  assert.equal(formatDurationMs(1500), '1500ms');
});

test('anything else is refused rather than guessed', () => {
  for (const bad of ['', '15', 'm', '1.5m', '-1m', '0s', '15 minutes', '1w', '99999999999d']) {
    assert.equal(parseDurationMs(bad), undefined, bad);
  }
});
