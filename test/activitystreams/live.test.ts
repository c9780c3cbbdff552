// Live rooms shaped like the platform's (test/fixtures/live/, PLATFORM.md §2.11) map to a live Video
// whose viewCount, viewerCount and stream files are present and typed as the spec says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { toLive, withContext } from '../../src/activitystreams/index.ts';
import { parsers } from '../../src/upstream/normalize.ts';
import { CTX, NS } from './golden-cases.ts';
import { checkSpecTypes } from './spec-types.ts';

const text = (name: string) => readFileSync(new URL(`../fixtures/live/${name}`, import.meta.url), 'utf8');
const room = () => parsers.liveRoom(text('api_live_user_room__live.json'));
const info = (body = text('webcast_room_info__live.json')) => parsers.roomInfo(body);

const FLV = 'video/x-flv';
const HLS = 'application/vnd.apple.mpegurl';

test('a platform-shaped live room has viewCount, viewerCount and every quality as FLV and HLS files', () => {
  const live = toLive(room(), info(), CTX);
  assert.deepEqual([live.viewerCount, live.viewCount, live.internalId], [1291, 1291, '7455123456789012345']);
  assert.equal(live.id, 'https://www.tiktok.com/@lumen.kitchen/live');
  assert.equal(live.published, '2026-01-07T10:00:00.000Z');
  assert.deepEqual(live.attachment?.map((f) => [f.name, f.mediaType, f.codec, f.width, f.height, f.bitrate]), [
    ['origin', FLV, 'h264', 1080, 1920, 2500000], ['origin', HLS, 'h264', 1080, 1920, 2500000],
    ['hd', FLV, 'h264', 720, 1280, 1200000], ['hd', HLS, 'h264', 720, 1280, 1200000],
    ['sd', FLV, 'h264', 480, 854, 800000], ['sd', HLS, 'h264', 480, 854, 800000],
    ['ld', FLV, 'h264', 360, 640, 500000], ['ld', HLS, 'h264', 360, 640, 500000],
  ]);
  for (const file of live.attachment ?? []) {
    assert.equal(file.url.length, 1);
    assert.match(file.url[0], file.mediaType === FLV ? /^https:\/\/pull-flv-.+\.flv\?/ : /^https:\/\/pull-hls-.+\/index\.m3u8\?/);
  }
});

test("every field of the mapped live room has the spec's JSON type", () => {
  assert.deepEqual(checkSpecTypes(withContext(toLive(room(), info(), CTX), NS), 'Video'), []);
});

test('room info without SDK data still yields files from the legacy maps, named by their keys', () => {
  const body = JSON.parse(text('webcast_room_info__live.json'));
  delete body.data.stream_url.live_core_sdk_data;
  const live = toLive(room(), info(JSON.stringify(body)), CTX);
  assert.deepEqual(live.attachment?.filter((f) => f.mediaType === FLV).map((f) => f.name), ['FULL_HD1', 'HD1', 'SD2', 'SD1']);
  assert.equal(live.attachment?.[0].codec, 'h264');
});

test('room info without stream_url or user_count falls back to the api-live streams and viewers', () => {
  const body = JSON.parse(text('webcast_room_info__live.json'));
  delete body.data.stream_url;
  delete body.data.user_count;
  const live = toLive(room(), info(JSON.stringify(body)), CTX);
  assert.deepEqual([live.viewerCount, live.viewCount], [1284, 1284]);
  assert.deepEqual(live.attachment?.map((f) => f.name), ['origin', 'origin', 'hd', 'hd', 'sd', 'sd', 'ld', 'ld']);
});
