// A watch's history as CSV (RFC 4180): one row per run, `at` first, then every metric seen in
// the range in a stable order; a metric a run did not record is an empty cell.
import type { Snapshot } from './types.ts';

function cell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function snapshotsToCsv(points: readonly Snapshot[]): string {
  const columns = [...new Set(points.flatMap((p) => Object.keys(p.metrics)))].sort();
  const lines = [['at', ...columns].map(cell).join(',')];
  for (const p of points) {
    lines.push([new Date(p.at).toISOString(), ...columns.map((c) => (c in p.metrics ? String(p.metrics[c]) : ''))].map(cell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
