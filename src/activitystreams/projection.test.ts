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

test('minimal keeps text, counts, cursors and timestamps but no media or web URL of any kind', () => {
  const page = golden('user-videos') as Record<string, any>;
  const small = project(page, 'minimal') as Record<string, any>;
  const keys = keysDeep(small);
  for (const key of [...MEDIA_KEYS, 'id']) assert.ok(!keys.has(key), `${key} dropped`);
  assert.deepEqual(small['@context'], page['@context']);
  assert.equal(small.partOf, page.partOf);
  assert.equal(small.nextCursor, page.nextCursor);
  assert.equal(small.next, page.next);
  assert.equal(small.totalItems, page.totalItems);
  const [video] = small.orderedItems;
  assert.equal(video.internalId, page.orderedItems[0].internalId, 'the video id the tools take');
  assert.equal(video.summary, page.orderedItems[0].summary);
  assert.equal(video.viewCount, page.orderedItems[0].viewCount);
  assert.equal(video.published, page.orderedItems[0].published);
  assert.ok(JSON.stringify(small).length < JSON.stringify(page).length / 4);
});

test('minimal turns nested objects into references: type and username, else name', () => {
  const video = (project(golden('user-videos'), 'minimal') as any).orderedItems[0];
  assert.deepEqual(video.attributedTo, { type: 'Person', preferredUsername: 'zg.520' });
  assert.deepEqual(video.tag.map((t: any) => t.name), ['china', '中国高铁🚅']);
  assert.deepEqual(Object.keys(video.tag[0]), ['type', 'name']);
  assert.deepEqual(video.audio, { type: 'Audio', name: '原声 - Youmile' });
});

test('minimal names a person by username and drops the platform ids no tool takes', () => {
  const person = golden('user-detail') as Record<string, any>;
  const small = project(person, 'minimal') as Record<string, any>;
  assert.equal(small.preferredUsername, person.preferredUsername);
  assert.equal(small.followerCount, person.followerCount);
  assert.equal(small.summary, person.summary);
  for (const key of ['id', 'internalId', 'userId', 'attachment', 'icon', 'image']) assert.ok(!(key in small), `${key} dropped`);
});

test('minimal comments keep the comment id, text, counts and the author username only', () => {
  const page = golden('video-comments') as Record<string, any>;
  const small = project(page, 'minimal') as Record<string, any>;
  const source = page.orderedItems[1];
  assert.deepEqual(small.orderedItems[1], {
    type: 'Note',
    internalId: source.internalId,
    content: source.content,
    published: source.published,
    likeCount: source.likeCount,
    replyCount: source.replyCount,
    isPinned: source.isPinned,
    attributedTo: { type: 'Person', preferredUsername: source.attributedTo.preferredUsername },
  });
});

test('minimal drops the text of a file but keeps what describes it', () => {
  const transcript = { '@context': ['a', 'b'], type: 'Document', id: 'https://v.test/1', url: 'https://f.test/1.vtt', mediaType: 'text/vtt', language: 'en-US', content: 'WEBVTT\n\n00:00.000 --> 00:01.000\nhi', size: 40, source: 'ASR' };
  assert.deepEqual(project(transcript, 'minimal'), { '@context': ['a', 'b'], type: 'Document', mediaType: 'text/vtt', size: 40, source: 'ASR' });
  assert.equal((project(transcript, 'standard') as any).content, transcript.content, 'standard keeps the text');
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