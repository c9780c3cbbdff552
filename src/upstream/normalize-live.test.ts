// The live parsers on bodies shaped like the platform's (test/fixtures/live/): viewer counts and
// every stream quality come from where the platform puts them, and malformed parts never fail the room.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parsers } from './normalize.ts';

const text = (name: string) => readFileSync(new URL(`../../test/fixtures/live/${name}`, import.meta.url), 'utf8');
const API_LIVE = 'api_live_user_room__live.json';
const ROOM_INFO = 'webcast_room_info__live.json';

/** The room info fixture with its `data.stream_url` edited. */
function roomInfoWith(edit: (streamUrl: Record<string, unknown>) => void): string {
  const body = JSON.parse(text(ROOM_INFO));
  edit(body.data.stream_url);
  return JSON.stringify(body);
}

test('api-live gives the room id, status, viewers from liveRoomStats.userCount and streams from streamData', () => {
  const room = parsers.liveRoom(text(API_LIVE));
  assert.deepEqual(
    [room.roomId, room.status, room.viewerCount, room.title, room.startTime, room.user?.uniqueId],
    ['7455123456789012345', 2, 1284, 'Sunday dumplings 🥟 ask me anything', 1767780000, 'lumen.kitchen'],
  );
  assert.deepEqual(room.streams.map((s) => [s.quality, s.codec, s.width, s.height, s.bitrate]), [
    ['origin', 'h264', 1080, 1920, 2500000],
    ['hd', 'h264', 720, 1280, 1200000],
    ['sd', 'h264', 480, 854, 800000],
    ['ld', 'h264', 360, 640, 500000],
  ]);
  assert.ok(room.streams.every((s) => /\.flv\?/.test(s.flv ?? '') && /\/index\.m3u8\?/.test(s.hls ?? '')));
});

test('room info gives viewers from user_count and streams from live_core_sdk_data, not the legacy maps', () => {
  const info = parsers.roomInfo(text(ROOM_INFO));
  assert.deepEqual(
    [info.roomId, info.status, info.viewerCount, info.ownerUniqueId, info.createTime],
    ['7455123456789012345', 2, 1291, 'lumen.kitchen', 1767780000],
  );
  assert.match(info.coverUrl ?? '', /^https:\/\/p16-webcast\./);
  assert.deepEqual(info.streams.map((s) => s.quality), ['origin', 'hd', 'sd', 'ld']);
});

test('room info without SDK data falls back to flv_pull_url, hls_pull_url_map and their params', () => {
  const info = parsers.roomInfo(roomInfoWith((su) => delete su.live_core_sdk_data));
  assert.deepEqual(info.streams.map((s) => [s.quality, s.codec, s.bitrate]), [
    ['FULL_HD1', 'h264', 2500000],
    ['HD1', 'h264', 1200000],
    ['SD2', 'h264', 800000],
    ['SD1', 'h264', 500000],
  ]);
});

test('a malformed stream_data string falls back to the legacy maps instead of failing the room', () => {
  const info = parsers.roomInfo(roomInfoWith((su) => {
    (su.live_core_sdk_data as { pull_data: { stream_data: string } }).pull_data.stream_data = '{"data":{"origin":';
  }));
  assert.equal(info.viewerCount, 1291);
  assert.equal(info.streams[0].quality, 'FULL_HD1');
});

test('a retyped stream_url or viewer count loses that part only', () => {
  const body = JSON.parse(text(ROOM_INFO));
  body.data.stream_url = 'gone';
  body.data.user_count = { n: 1 };
  const info = parsers.roomInfo(JSON.stringify(body));
  assert.deepEqual([info.status, info.viewerCount, info.streams], [2, undefined, []]);
  const live = JSON.parse(text(API_LIVE));
  live.data.liveRoom.streamData = 'gone';
  live.data.liveRoom.liveRoomStats = [];
  const room = parsers.liveRoom(JSON.stringify(live));
  assert.deepEqual([room.roomId, room.status, room.viewerCount, room.streams], ['7455123456789012345', 2, undefined, []]);
});

test('an offline user has no room id and no streams', () => {
  const live = JSON.parse(text(API_LIVE));
  live.data.user.roomId = '';
  live.data.liveRoom = { status: 4, streamData: {}, liveRoomStats: { userCount: 0 }, title: '' };
  const room = parsers.liveRoom(JSON.stringify(live));
  assert.deepEqual([room.roomId, room.status, room.streams], [undefined, 4, []]);
  assert.deepEqual(parsers.liveRoom('{"statusCode":0,"data":{"user":null}}').roomId, undefined);
});
