import { test } from 'node:test';
import assert from 'node:assert/strict';
import { snapshotsToCsv } from './csv.ts';

test('history CSV has a header, one row per run in order, and empty cells for metrics a run lacked', () => {
  const csv = snapshotsToCsv([
    { at: Date.UTC(2026, 0, 1), metrics: { viewCount: 10, likeCount: 1 } },
    { at: Date.UTC(2026, 0, 2), metrics: { viewCount: 12 } },
  ]);
  assert.equal(csv, 'at,likeCount,viewCount\r\n2026-01-01T00:00:00.000Z,1,10\r\n2026-01-02T00:00:00.000Z,,12\r\n');
  assert.equal(snapshotsToCsv([]), 'at\r\n');
});
