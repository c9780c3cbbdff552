// The history chart (src/watches/chart.ts), read back as XML: one panel per metric with one point per
// snapshot, escaped text, no script or external reference, sensible with 0 or 1 snapshot, bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { historyToSvg, PANEL_POINTS_MAX } from '../../src/watches/chart.ts';
import type { Snapshot } from '../../src/watches/types.ts';
import { allElements, parseXml, type XmlElement } from '../helpers/xml.ts';

const watch = { id: 'wch_chart', kind: 'video', target: '7281093965046440490' };
const T0 = Date.parse('2026-11-23T09:00:00.000Z');

function videoRuns(count: number): Snapshot[] {
  return Array.from({ length: count }, (_, i) => ({
    at: T0 + i * 1000,
    metrics: { viewCount: 1000 + i * 10, likeCount: 50 + i, commentCount: 7, shareCount: i % 2, saveCount: 3 },
  }));
}

const panelsOf = (svg: XmlElement) => allElements(svg).filter((e) => e.name === 'g' && e.attributes.class === 'panel');
const pairsOf = (panel: XmlElement) => panel.children.find((e) => e.name === 'polyline')!.attributes.points.trim().split(/\s+/).filter(Boolean);

function assertSelfContained(source: string, svg: XmlElement): void {
  assert.equal(svg.name, 'svg');
  assert.equal(svg.attributes.xmlns, 'http://www.w3.org/2000/svg');
  for (const element of allElements(svg)) {
    assert.notEqual(element.name, 'script');
    assert.notEqual(element.name, 'foreignObject');
    for (const [name, value] of Object.entries(element.attributes)) {
      assert.ok(!/href$/i.test(name) && !/^on/i.test(name), `${element.name} ${name}`);
      assert.doesNotMatch(value, /url\(|javascript:/i);
    }
  }
  assert.doesNotMatch(source, /<style|@import/);
}

test('a history is a well-formed SVG with one panel per metric and one point per snapshot', () => {
  const source = historyToSvg(watch, videoRuns(4));
  const svg = parseXml(source);
  assertSelfContained(source, svg);
  const panels = panelsOf(svg);
  assert.deepEqual(panels.map((p) => p.attributes['data-metric']), ['commentCount', 'likeCount', 'saveCount', 'shareCount', 'viewCount']);
  for (const panel of panels) assert.equal(pairsOf(panel).length, 4, panel.attributes['data-metric']);
  const views = panels.find((p) => p.attributes['data-metric'] === 'viewCount')!;
  const texts = views.children.filter((e) => e.name === 'text').map((e) => e.text);
  assert.deepEqual(texts, ['viewCount', 'min 1,000 · max 1,030', '2026-11-23 09:00:00Z', '2026-11-23 09:00:03Z']);
  // Time runs left to right and the higher count is drawn higher.
  const [first, , , last] = pairsOf(views).map((pair) => pair.split(',').map(Number));
  assert.ok(first[0] < last[0] && first[1] > last[1], `${first} ${last}`);
  assert.equal(Number(svg.attributes.height) <= 56 + 5 * 116, true);
});

test('the title names the watch with its text escaped', () => {
  const hostile = { ...watch, target: '<script>alert("x")</script> & co' };
  const source = historyToSvg(hostile, videoRuns(2));
  const svg = parseXml(source);
  assertSelfContained(source, svg);
  const title = svg.children.find((e) => e.name === 'title')!;
  assert.equal(title.text, `video <script>alert("x")</script> & co (wch_chart)`);
  assert.match(source, /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; co/);
});

test('no snapshot is a clear empty chart, one snapshot a marked point', () => {
  const empty = parseXml(historyToSvg(watch, []));
  assert.equal(panelsOf(empty).length, 0);
  assert.ok(allElements(empty).some((e) => e.name === 'text' && e.text === 'No snapshots in this range.'));
  const one = parseXml(historyToSvg(watch, videoRuns(1)));
  const panels = panelsOf(one);
  assert.equal(panels.length, 5);
  for (const panel of panels) {
    assert.equal(pairsOf(panel).length, 1);
    assert.equal(panel.children.filter((e) => e.name === 'circle').length, 1);
  }
});

test('a long history stays bounded and keeps its spikes', () => {
  const runs = Array.from({ length: 10_000 }, (_, i) => ({ at: T0 + i * 60_000, metrics: { viewerCount: i === 4321 ? 99_999 : i % 50 } }));
  const source = historyToSvg({ ...watch, kind: 'live', target: 'someone' }, runs);
  const [panel] = panelsOf(parseXml(source));
  assert.ok(pairsOf(panel).length <= PANEL_POINTS_MAX, `${pairsOf(panel).length} points`);
  assert.ok(source.length < 64 * 1024, `${source.length} bytes`);
  assert.ok(panel.children.some((e) => e.name === 'text' && e.text === 'min 0 · max 99,999'));
  const highest = Math.min(...pairsOf(panel).map((pair) => Number(pair.split(',')[1])));
  assert.equal(highest, 56 + 24, 'the spike is drawn at the top of the plot');
});

test('the XML reader refuses what is not well-formed, so the checks above can fail', () => {
  for (const bad of ['<svg><g></svg>', '<svg a="1" a="2"/>', '<svg>a & b</svg>', '<svg>a < b</svg>', '<svg x="<"/>', '<svg/><svg/>', '<svg>&nbsp;</svg>', '<!DOCTYPE svg><svg/>']) {
    assert.throws(() => parseXml(bad), /not well-formed|entity|bare|"<"/, bad);
  }
  assert.equal(parseXml('<?xml version="1.0"?>\n<a b=\'1\'><!-- c --><d/>x &amp; y</a>\n').text, 'x & y');
});
