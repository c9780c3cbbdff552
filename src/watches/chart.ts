// A watch's history as a self-contained SVG line chart: one small panel per metric with its label,
// its min and max and a time axis from the first to the last snapshot. No script, no external
// reference, every text escaped; the size is bounded whatever the number of snapshots.
import type { Snapshot } from './types.ts';

const WIDTH = 720;
const MARGIN_X = 16;
const HEADER_HEIGHT = 56;
const PANEL_HEIGHT = 116;
const PLOT_TOP = 24;
const PLOT_HEIGHT = 66;
const PLOT_WIDTH = WIDTH - 2 * MARGIN_X;
/** One panel per metric; a kind records at most five, so more is a stray and is not drawn. */
export const PANELS_MAX = 12;
/** Above this, a panel keeps each pixel column's lowest and highest value (spikes survive). */
export const PANEL_POINTS_MAX = 2 * PLOT_WIDTH;

const FONT = 'font-family="system-ui, sans-serif"';
const LINE_COLOUR = '#2563eb';
const MUTED = '#57606a';

export type ChartWatch = { id: string; kind: string; target: string };

/** Text and attribute values: the five characters XML gives a meaning. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

const timeLabel = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, 'Z');
const countLabel = (n: number) => (Number.isInteger(n) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : String(n));
const fixed = (n: number) => n.toFixed(1);

type Point = { at: number; value: number };

/** At most two points per pixel column, in time order: the column's lowest and highest. */
export function downsample(series: readonly Point[], t0: number, t1: number): Point[] {
  if (series.length <= PANEL_POINTS_MAX || t1 === t0) return series.slice(0, PANEL_POINTS_MAX);
  const columns = new Map<number, { low: Point; high: Point }>();
  for (const point of series) {
    const column = Math.min(PLOT_WIDTH - 1, Math.floor(((point.at - t0) / (t1 - t0)) * PLOT_WIDTH));
    const seen = columns.get(column);
    if (!seen) columns.set(column, { low: point, high: point });
    else {
      if (point.value < seen.low.value) seen.low = point;
      if (point.value > seen.high.value) seen.high = point;
    }
  }
  return [...columns.values()].flatMap(({ low, high }) => (low === high ? [low] : low.at <= high.at ? [low, high] : [high, low]));
}

function panel(metric: string, series: Point[], t0: number, t1: number, top: number): string {
  const values = series.map((p) => p.value);
  const min = Math.min(...values);
  const max = Math.max(...values);
  const plotTop = top + PLOT_TOP;
  const x = (at: number) => (t1 === t0 ? MARGIN_X + PLOT_WIDTH / 2 : MARGIN_X + ((at - t0) / (t1 - t0)) * PLOT_WIDTH);
  const y = (value: number) => (max === min ? plotTop + PLOT_HEIGHT / 2 : plotTop + PLOT_HEIGHT - ((value - min) / (max - min)) * PLOT_HEIGHT);
  const drawn = downsample(series, t0, t1);
  const coordinates = drawn.map((p) => `${fixed(x(p.at))},${fixed(y(p.value))}`).join(' ');
  const bottom = plotTop + PLOT_HEIGHT;
  const lines = [
    `<g class="panel" data-metric="${escapeXml(metric)}">`,
    `<text x="${MARGIN_X}" y="${top + 16}" ${FONT} font-size="13" font-weight="600" fill="#1f2328">${escapeXml(metric)}</text>`,
    `<text x="${WIDTH - MARGIN_X}" y="${top + 16}" ${FONT} font-size="11" fill="${MUTED}" text-anchor="end">min ${countLabel(min)} · max ${countLabel(max)}</text>`,
    `<rect x="${MARGIN_X}" y="${plotTop}" width="${PLOT_WIDTH}" height="${PLOT_HEIGHT}" fill="#f6f8fa" stroke="#d0d7de" stroke-width="1"/>`,
    `<polyline points="${coordinates}" fill="none" stroke="${LINE_COLOUR}" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round"/>`,
  ];
  // A single snapshot is a point, which a polyline does not show.
  if (drawn.length === 1) lines.push(`<circle cx="${fixed(x(drawn[0].at))}" cy="${fixed(y(drawn[0].value))}" r="3" fill="${LINE_COLOUR}"/>`);
  if (t1 === t0) {
    lines.push(`<text x="${WIDTH / 2}" y="${bottom + 14}" ${FONT} font-size="10" fill="${MUTED}" text-anchor="middle">${timeLabel(t0)}</text>`);
  } else {
    lines.push(
      `<text x="${MARGIN_X}" y="${bottom + 14}" ${FONT} font-size="10" fill="${MUTED}">${timeLabel(t0)}</text>`,
      `<text x="${WIDTH - MARGIN_X}" y="${bottom + 14}" ${FONT} font-size="10" fill="${MUTED}" text-anchor="end">${timeLabel(t1)}</text>`,
    );
  }
  lines.push('</g>');
  return lines.join('\n');
}

/** The chart of `points` (time order, as the store answers them) for `watch`. */
export function historyToSvg(watch: ChartWatch, points: readonly Snapshot[]): string {
  const metrics = [...new Set(points.flatMap((p) => Object.keys(p.metrics)))].sort().slice(0, PANELS_MAX);
  const title = `${watch.kind} ${watch.target} (${watch.id})`;
  const t0 = points[0]?.at ?? 0;
  const t1 = points.at(-1)?.at ?? 0;
  const summary =
    points.length === 0
      ? 'No snapshots in this range.'
      : `${points.length} snapshot${points.length === 1 ? '' : 's'}, ${timeLabel(t0)}${t1 === t0 ? '' : ` to ${timeLabel(t1)}`}`;
  const height = HEADER_HEIGHT + (metrics.length === 0 ? 40 : metrics.length * PANEL_HEIGHT);
  const body = metrics.map((metric, index) => {
    const series = points.filter((p) => metric in p.metrics).map((p) => ({ at: p.at, value: p.metrics[metric] }));
    return panel(metric, series, t0, t1, HEADER_HEIGHT + index * PANEL_HEIGHT);
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="chart-title chart-desc">`,
    `<title id="chart-title">${escapeXml(title)}</title>`,
    `<desc id="chart-desc">${escapeXml(`Counts recorded by watch ${watch.id}: ${summary}`)}</desc>`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="${MARGIN_X}" y="26" ${FONT} font-size="16" font-weight="600" fill="#1f2328">${escapeXml(title)}</text>`,
    `<text x="${MARGIN_X}" y="46" ${FONT} font-size="12" fill="${MUTED}">${escapeXml(summary)}</text>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}
