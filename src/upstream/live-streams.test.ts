// Live stream qualities read from the SDK pull data and the legacy pull-URL maps, malformed parts left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readCount, readLegacyStreams, readSdkStreams } from './live-streams.ts';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../test/fixtures/live/${name}`, import.meta.url), 'utf8'));
const roomInfo = () => fixture('webcast_room_info__live.json').data;
const pullData = () => fixture('api_live_user_room__live.json').data.liveRoom.streamData.pull_data;
const url = (path: string) => `https://cdn.test/${path}`;
const entry = (name: string, sdk: unknown = JSON.stringify({ VCodec: 'h264', vbitrate: 1000, resolution: '720x1280' })) => ({
  main: { flv: url(`${name}.flv`), hls: url(`${name}.m3u8`), sdk_params: sdk },
});

test('the SDK stream data gives every quality with FLV, HLS, codec, bitrate and size, best first', () => {
  const streams = readSdkStreams(pullData());
  assert.deepEqual(streams.map((s) => s.quality), ['origin', 'hd', 'sd', 'ld']);
  const [origin] = streams;
  assert.match(origin.flv ?? '', /^https:\/\/pull-flv-.+_or4\.flv\?/);
  assert.match(origin.hls ?? '', /^https:\/\/pull-hls-.+_or4\/index\.m3u8\?/);
  assert.deepEqual([origin.codec, origin.bitrate, origin.width, origin.height], ['h264', 2500000, 1080, 1920]);
  assert.deepEqual(streams.map((s) => s.bitrate), [2500000, 1200000, 800000, 500000]);
});

test('room info carries the same SDK data under stream_url.live_core_sdk_data', () => {
  assert.deepEqual(readSdkStreams(roomInfo().stream_url.live_core_sdk_data.pull_data), readSdkStreams(pullData()));
});

test("qualities follow YTDLP's order; keys it does not know come last, by the room's own level", () => {
  const data = { ld: entry('ld'), zeta: entry('zeta'), ORIGION: entry('or'), alpha: entry('alpha'), uhd: entry('uhd'), SD2: entry('sd2') };
  const options = { qualities: [{ sdk_key: 'zeta', level: 9 }, { sdk_key: 'alpha', level: 1 }, 'junk', { level: 3 }] };
  const streams = readSdkStreams({ stream_data: JSON.stringify({ data }), options });
  assert.deepEqual(streams.map((s) => s.quality), ['ORIGION', 'uhd', 'SD2', 'ld', 'zeta', 'alpha']);
});

test('a malformed stream_data string yields no streams instead of an error', () => {
  for (const streamData of ['{"data":', '', 'null', '[]', '{"data":"x"}', 42]) {
    assert.deepEqual(readSdkStreams({ stream_data: streamData }), [], String(streamData));
  }
  assert.deepEqual(readSdkStreams(undefined), []);
  assert.deepEqual(readSdkStreams('pull'), []);
});

test('a malformed quality loses only what is malformed: bad sdk_params drop the params, bad URLs the URL', () => {
  const data = {
    hd: entry('hd', '{VCodec: h264'),
    sd: { main: { flv: 'rtmp://cdn.test/sd', hls: url('sd.m3u8'), sdk_params: JSON.stringify({ VCodec: 7, vbitrate: '800000', resolution: 'big' }) } },
    ld: { main: { flv: '', hls: null } },
    origin: 'not an object',
    uhd: entry('uhd', { VCodec: 'h265', vbitrate: -5, resolution: '2160x3840' }),
  };
  const streams = readSdkStreams({ stream_data: JSON.stringify({ data }) });
  assert.deepEqual(streams, [
    { quality: 'uhd', flv: url('uhd.flv'), hls: url('uhd.m3u8'), codec: 'h265', bitrate: undefined, width: 2160, height: 3840 },
    { quality: 'hd', flv: url('hd.flv'), hls: url('hd.m3u8'), codec: undefined, bitrate: undefined, width: undefined, height: undefined },
    { quality: 'sd', flv: undefined, hls: url('sd.m3u8'), codec: undefined, bitrate: 800000, width: undefined, height: undefined },
  ]);
});

test('legacy maps give one stream per quality key with its FLV params; the lone HLS URL joins its twin', () => {
  const streams = readLegacyStreams(roomInfo().stream_url);
  assert.deepEqual(streams.map((s) => s.quality), ['FULL_HD1', 'HD1', 'SD2', 'SD1']);
  assert.deepEqual([streams[1].codec, streams[1].bitrate, streams[1].width, streams[1].height], ['h264', 1200000, 720, 1280]);
  assert.ok(streams.every((s) => s.flv && s.hls));
});

test('a lone HLS pull URL missing from the map is the "default" stream with its own params', () => {
  const streams = readLegacyStreams({
    flv_pull_url: { SD1: url('sd1.flv'), HD1: url('hd1.flv') },
    flv_pull_url_params: { HD1: '{"VCodec":"h264"', SD1: JSON.stringify({ VCodec: 'h264', resolution: '360x640' }) },
    hls_pull_url: url('default.m3u8'),
    hls_pull_url_params: JSON.stringify({ VCodec: 'h264' }),
  });
  assert.deepEqual(streams, [
    { quality: 'HD1', flv: url('hd1.flv'), hls: undefined, codec: undefined, bitrate: undefined, width: undefined, height: undefined },
    { quality: 'SD1', flv: url('sd1.flv'), hls: undefined, codec: 'h264', bitrate: undefined, width: 360, height: 640 },
    { quality: 'default', flv: undefined, hls: url('default.m3u8'), codec: 'h264', bitrate: undefined, width: undefined, height: undefined },
  ]);
});

test('retyped legacy maps yield nothing rather than an error', () => {
  assert.deepEqual(readLegacyStreams({ flv_pull_url: 'x', hls_pull_url_map: [1], hls_pull_url: 5, flv_pull_url_params: 'y' }), []);
  assert.deepEqual(readLegacyStreams(undefined), []);
});

test('viewer counts read numbers and digit strings; anything else is absent', () => {
  assert.deepEqual([1284, '1284', 0, -1, 1.5, '1,284', null, undefined].map(readCount), [1284, 1284, 0, undefined, undefined, undefined, undefined, undefined]);
});
