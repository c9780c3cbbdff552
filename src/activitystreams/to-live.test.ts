// Live mapping from a synthetic room (no real live sample exists, PLATFORM.md §0).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RawRoomInfo } from '../upstream/raw.ts';
import type { RawLiveRoom } from '../upstream/types.ts';
import { toLive } from './to-live.ts';

const ctx = { webOrigin: 'https://www.tiktok.com', chainToken: 'tok' };
const room: RawLiveRoom = {
  user: { id: '9', uniqueId: 'ann', nickname: 'Ann', roomId: '7300' },
  roomId: '7300',
  status: 2,
  liveRoom: { status: 2, title: 'old title', startTime: 1700000000, liveRoomStats: { userCount: 5, enterCount: 50 } },
};
const streamData = JSON.stringify({
  data: {
    hd: { main: { flv: 'https://l.test/hd.flv', hls: 'https://l.test/hd.m3u8', sdk_params: JSON.stringify({ VCodec: 'h264', vbitrate: 2000000, resolution: '720x1280' }) } },
    origin: { main: { flv: 'https://l.test/or.flv', sdk_params: '{not json' } },
  },
});
const info: RawRoomInfo = {
  id_str: '7300', status: 2, title: 'Live now', user_count: 42, total_user: 900, create_time: 1700000100,
  cover: { url_list: ['https://c.test/cover.jpg'] },
  stream_url: {
    flv_pull_url: { SD1: 'https://l.test/sd.flv', HD1: 'https://l.test/hd.flv', ORIGION: 'https://l.test/or.flv' },
    hls_pull_url: 'https://l.test/hd.m3u8',
    live_core_sdk_data: { pull_data: { stream_data: streamData } },
  },
};

test('a live room maps to a live Video at the user live URL with room info winning', () => {
  const live = toLive(room, info, ctx);
  assert.equal(live.id, 'https://www.tiktok.com/@ann/live');
  assert.equal(live.internalId, '7300');
  assert.equal(live.isLive, true);
  assert.equal(live.summary, 'Live now');
  assert.equal(live.published, '2023-11-14T22:15:00.000Z');
  assert.equal(live.viewerCount, 42);
  assert.equal(live.viewCount, 900);
  assert.equal(live.attributedTo?.preferredUsername, 'ann');
  assert.equal(live.image?.url, 'https://c.test/cover.jpg');
});

test('FLV renditions come best first with sdk_params, then HLS; malformed sdk_params are ignored', () => {
  const files = toLive(room, info, ctx).attachment ?? [];
  assert.deepEqual(files.map((f) => [f.name, f.mediaType]), [
    ['ORIGION', 'video/x-flv'], ['HD1', 'video/x-flv'], ['SD1', 'video/x-flv'], ['hls', 'application/vnd.apple.mpegurl'],
  ]);
  assert.deepEqual(files[1], { type: 'Video', name: 'HD1', url: ['https://l.test/hd.flv'], mediaType: 'video/x-flv', codec: 'h264', width: 720, height: 1280, bitrate: 2000000 });
  assert.equal(files[0].codec, undefined);
  assert.ok(files.every((f) => f.headers === undefined));
});

test('without room info stats the profile room stats are used', () => {
  const live = toLive(room, { status: 2 }, ctx);
  assert.equal(live.viewerCount, 5);
  assert.equal(live.viewCount, 50);
  assert.equal(live.summary, 'old title');
  assert.equal(live.published, '2023-11-14T22:13:20.000Z');
  assert.equal(live.attachment, undefined);
});