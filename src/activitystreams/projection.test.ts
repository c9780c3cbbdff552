// Projection presets on the golden outputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { project } from './projection.ts';

const golden = (name: string) => JSON.parse(readFileSync(new URL(`../../test/fixtures/golden/${name}.json`, import.meta.url), 'utf8'));
const MEDIA_KEYS = ['attachment', 'image', 'icon', 'preview', 'headers', 'url', 'href'];

function keysDeep(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysDeep(v, out));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) { out.add(k); keysDeep(v, out); }
  return out;
}

test('full returns the data unchanged', () => {
  const page = golden('user-videos');
  assert.equal(project(page, 'full'), page);
});

test('minimal keeps ids, text, counts, cursors and timestamps but no media of any kind', () => {
  const page = golden('user-videos') as Record<string, any>;
  const small = project(page, 'minimal') as Record<string, any>;
  const keys = keysDeep(small);
  for (const key of MEDIA_KEYS) assert.ok(!keys.has(key), `${key} dropped`);
  assert.equal(small.nextCursor, page.nextCursor);
  assert.equal(small.next, page.next);
  const [video] = small.orderedItems;
  assert.equal(video.id, page.orderedItems[0].id);
  assert.equal(video.summary, page.orderedItems[0].summary);
  assert.equal(video.viewCount, page.orderedItems[0].viewCount);
  assert.equal(video.published, page.orderedItems[0].published);
  assert.equal(video.attributedTo.preferredUsername, 'zg.520');
  assert.ok(JSON.stringify(small).length < JSON.stringify(page).length / 4);
});

test('standard drops image sets and previews and keeps the best rendition per codec', () => {
  const page = golden('user-videos') as Record<string, any>;
  const mid = project(page, 'standard') as Record<string, any>;
  const [video] = mid.orderedItems;
  assert.ok(!('preview' in video));
  assert.ok(!('image' in video.attributedTo), 'avatar set dropped');
  assert.ok(video.attributedTo.icon, 'one avatar kept');
  assert.ok(video.image.url, 'the cover stays');
  const renditions = video.attachment.map((f: any) => [f.codec, f.bitrate]);
  assert.deepEqual(renditions, [['h265_hvc1', 873954], ['h264', 404677]]);
  assert.ok(video.attachment[0].headers.Referer, 'fetch headers stay');
});

test('standard keeps photo attachments and renditions without bitrate in platform order', () => {
  const data = { attachment: [
    { type: 'Image', url: 'https://i.test/1' },
    { type: 'Video', name: 'A', mediaType: 'video/x-flv' },
    { type: 'Video', name: 'B', mediaType: 'video/x-flv' },
    { type: 'Video', name: 'hls', mediaType: 'application/vnd.apple.mpegurl' },
  ] };
  const names = (project(data, 'standard') as any).attachment.map((a: any) => a.name ?? a.type);
  assert.deepEqual(names, ['Image', 'A', 'hls']);
});