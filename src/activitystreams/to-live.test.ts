// Live mapping rules on hand-built normalised rooms; the platform-shaped bodies are mapped in
// test/activitystreams/live.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LiveRoomInfo, LiveStream, RawLiveRoom } from '../upstream/types.ts';
import { toLive } from './to-live.ts';

const ctx = { webOrigin: 'https://www.tiktok.com', chainToken: 'tok' };
const stream = (quality: string, extra: Partial<LiveStream> = {}): LiveStream => ({
  quality, flv: `https://l.test/${quality}.flv`, hls: `https://l.test/${quality}.m3u8`,
  codec: 'h264', bitrate: 1_000_000, width: 720, height: 1280, ...extra,
});
const room: RawLiveRoom = {
  user: { id: '9', uniqueId: 'ann', nickname: 'Ann', roomId: '7300' },
  roomId: '7300', status: 2, title: 'room title', startTime: 1700000000, coverUrl: 'https://c.test/room.jpg',
  viewerCount: 5, streams: [stream('ld')],
};
const info: LiveRoomInfo = {
  roomId: '7300', status: 2, title: 'Live now', createTime: 1700000100, coverUrl: 'https://c.test/cover.jpg',
  ownerUniqueId: 'ann', viewerCount: 42, streams: [stream('origin', { codec: 'h265', bitrate: 3_000_000, width: 1080, height: 1920 }), stream('hd', { hls: undefined })],
};
const bare: LiveRoomInfo = {
  roomId: undefined, status: 2, title: undefined, createTime: undefined, coverUrl: undefined, ownerUniqueId: undefined, viewerCount: undefined, streams: [],
};

test('a live room maps to a live Video at the user live URL with room info winning', () => {
  const live = toLive(room, info, ctx);
  assert.equal(live.id, 'https://www.tiktok.com/@ann/live');
  assert.equal(live.internalId, '7300');
  assert.equal(live.isLive, true);
  assert.equal(live.summary, 'Live now');
  assert.equal(live.published, '2023-11-14T22:15:00.000Z');
  assert.equal(live.attributedTo?.preferredUsername, 'ann');
  assert.equal(live.image?.url, 'https://c.test/cover.jpg');
});

test('the current audience is both viewerCount and viewCount', () => {
  const live = toLive(room, info, ctx);
  assert.deepEqual([live.viewerCount, live.viewCount], [42, 42]);
});

test('each quality gives an FLV then an HLS file named by its quality key, in the order given', () => {
  const files = toLive(room, info, ctx).attachment ?? [];
  assert.deepEqual(files.map((f) => [f.name, f.mediaType]), [
    ['origin', 'video/x-flv'], ['origin', 'application/vnd.apple.mpegurl'], ['hd', 'video/x-flv'],
  ]);
  assert.deepEqual(files[1], {
    type: 'Video', name: 'origin', url: ['https://l.test/origin.m3u8'], mediaType: 'application/vnd.apple.mpegurl',
    codec: 'h265', width: 1080, height: 1920, bitrate: 3_000_000,
  });
  assert.ok(files.every((f) => f.headers === undefined));
});

test('without room info values the api-live room fills title, time, cover, viewers and streams', () => {
  const live = toLive(room, bare, ctx);
  assert.deepEqual([live.viewerCount, live.viewCount, live.summary], [5, 5, 'room title']);
  assert.equal(live.published, '2023-11-14T22:13:20.000Z');
  assert.equal(live.image?.url, 'https://c.test/room.jpg');
  assert.deepEqual(live.attachment?.map((f) => f.name), ['ld', 'ld']);
});

test('a room with no counts or streams anywhere omits viewCount and viewerCount, and has an empty attachment', () => {
  const live = toLive({ ...room, viewerCount: undefined, streams: [] }, bare, ctx);
  assert.ok(!('viewCount' in live) && !('viewerCount' in live));
  assert.deepEqual(live.attachment, []);
});
