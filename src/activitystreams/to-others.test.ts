// Note, playlist and transcript mapping rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RawComment } from '../upstream/raw.ts';
import { toNote } from './to-note.ts';
import { toPlaylist } from './to-playlist.ts';
import { toTranscript } from './to-transcript.ts';

const ctx = { webOrigin: 'https://www.tiktok.com', chainToken: undefined };
const videoUrl = 'https://www.tiktok.com/@ann/video/71';

test('a comment is pinned by stick_position or author_pin and liked when user_digged is 1', () => {
  const comment: RawComment = { cid: '5', aweme_id: '71', text: 'hi', create_time: '1700000000', user: { uid: '1', unique_id: 'bob' } };
  const plain = toNote(comment, ctx, videoUrl);
  assert.deepEqual([plain.isPinned, plain.isLiked], [false, false]);
  assert.equal(plain.id, `${videoUrl}?comment_id=5`);
  assert.equal(plain.inReplyTo, videoUrl);
  assert.equal(toNote({ ...comment, stick_position: 1 }, ctx, videoUrl).isPinned, true);
  assert.equal(toNote({ ...comment, author_pin: true }, ctx, videoUrl).isPinned, true);
  assert.equal(toNote({ ...comment, user_digged: 1, status: 7 }, ctx, videoUrl).isLiked, true);
  assert.equal(toNote({ ...comment, status: 7 }, ctx, videoUrl).status, '7');
});

test('a playlist gets the platform playlist URL of its owner and its video count', () => {
  const owner = { id: '9', uniqueId: 'ann' };
  const list = toPlaylist({ mixId: '7200000000000000001', mixName: 'My Trip: Day 1!', videoCount: '12', cover: 'https://c.test/p.jpg' }, ctx, owner);
  assert.equal(list.id, 'https://www.tiktok.com/@ann/playlist/My-Trip-Day-1-7200000000000000001');
  assert.equal(list.internalId, '7200000000000000001');
  assert.equal(list.totalItems, 12);
  assert.equal(list.attributedTo?.preferredUsername, 'ann');
  assert.deepEqual(list.image, { type: 'Image', url: 'https://c.test/p.jpg' });
});

test('a transcript Document has its own id under the video URL, measures its WebVTT in UTF-8 bytes and keeps the source', () => {
  const vtt = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n你好\n';
  const doc = toTranscript({ videoUrl, subtitle: { LanguageCodeName: 'cmn-Hans-CN', Url: 'https://s.test/sub', Source: 'ASR' }, vtt, language: 'zh-Hans-CN' });
  assert.deepEqual(doc, {
    type: 'Document', id: `${videoUrl}#transcript-zh-Hans-CN`, url: 'https://s.test/sub', mediaType: 'text/vtt', language: 'zh-Hans-CN',
    content: vtt, size: vtt.length + 4, source: 'ASR',
  });
});