// The emulator's live rooms carry every member PLATFORM.md §2.11 names, where it names it and with
// the JSON type it has there, like the platform-shaped bodies in test/fixtures/live/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startEmulator } from './server.ts';
import type { Emulator } from './server.ts';
import { createTestClient } from './test-client.ts';
import type { TestClient } from './test-client.ts';

let em: Emulator;
let client: TestClient;

before(async () => {
  em = await startEmulator({ seed: 3 });
  client = await createTestClient(em.url);
});
after(() => em.close());

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../test/fixtures/live/${name}`, import.meta.url), 'utf8'));

/** `{}` after a member: its string value is JSON; `*`: every value of a map; `[]`: every element. */
const PULL_DATA = [
  ['stream_data', 'string'],
  ['stream_data{}.data.*.main.flv', 'string'],
  ['stream_data{}.data.*.main.hls', 'string'],
  ['stream_data{}.data.*.main.sdk_params{}.VCodec', 'string'],
  ['stream_data{}.data.*.main.sdk_params{}.vbitrate', 'number'],
  ['stream_data{}.data.*.main.sdk_params{}.resolution', 'string'],
  ['options.qualities[].sdk_key', 'string'],
  ['options.qualities[].level', 'number'],
] as const;

const API_LIVE = [
  ['statusCode', 'number'],
  ['data.user.roomId', 'string'],
  ['data.user.uniqueId', 'string'],
  ['data.liveRoom.status', 'number'],
  ['data.liveRoom.title', 'string'],
  ['data.liveRoom.startTime', 'number'],
  ['data.liveRoom.coverUrl', 'string'],
  ['data.liveRoom.liveRoomStats.userCount', 'number'],
  ...PULL_DATA.map(([p, t]) => [`data.liveRoom.streamData.pull_data.${p}`, t] as const),
] as const;

const ROOM_INFO = [
  ['status_code', 'number'],
  ['data.status', 'number'],
  ['data.title', 'string'],
  ['data.user_count', 'number'],
  ['data.create_time', 'number'],
  ['data.owner.display_id', 'string'],
  ['data.stream_url.flv_pull_url.*', 'string'],
  ['data.stream_url.flv_pull_url_params.*{}.VCodec', 'string'],
  ['data.stream_url.hls_pull_url', 'string'],
  ['data.stream_url.hls_pull_url_map.*', 'string'],
  ['data.stream_url.hls_pull_url_params{}.VCodec', 'string'],
  ...PULL_DATA.map(([p, t]) => [`data.stream_url.live_core_sdk_data.pull_data.${p}`, t] as const),
] as const;

function valuesAt(root: unknown, path: string): unknown[] {
  let values = [root];
  for (const segment of path.split('.')) {
    const [, name, suffix] = /^([^{[]*)(\{\}|\[\])?$/.exec(segment) ?? [];
    values = values.flatMap((v) => {
      const obj = v as Record<string, unknown> | undefined;
      const picked = name === '*' ? Object.values(obj ?? {}) : [obj?.[name]];
      if (suffix === '[]') return picked.flatMap((p) => (Array.isArray(p) ? p : [undefined]));
      if (suffix === '{}') return picked.map((p) => (typeof p === 'string' ? JSON.parse(p) : undefined));
      return picked;
    });
  }
  return values;
}

function typeErrors(body: unknown, paths: ReadonlyArray<readonly [string, string]>): string[] {
  return paths.flatMap(([path, type]) => {
    const values = valuesAt(body, path);
    const wrong = values.filter((v) => typeof v !== type);
    return values.length === 0 || wrong.length > 0 ? [`${path}: want ${type}, got ${JSON.stringify(wrong.slice(0, 1))}`] : [];
  });
}

test('the platform-shaped fixtures have every member PLATFORM.md names for a live room', () => {
  assert.deepEqual(typeErrors(fixture('api_live_user_room__live.json'), API_LIVE), []);
  assert.deepEqual(typeErrors(fixture('webcast_room_info__live.json'), ROOM_INFO), []);
});

test('api-live answers a live user with every member where the platform puts it', async () => {
  const body = await client.api('/api-live/user/room/', { uniqueId: em.manifest.users.live, sourceType: 54 });
  assert.deepEqual(typeErrors(body, API_LIVE), []);
  assert.ok(body.data.liveRoom.liveRoomStats.userCount > 0);
});

test('room info answers a live room with every member where the platform puts it', async () => {
  const live = await client.api('/api-live/user/room/', { uniqueId: em.manifest.users.live, sourceType: 54 });
  const room = (await (await client.get(`/webcast/room/info/?aid=1988&room_id=${live.data.user.roomId}`)).json()) as any;
  assert.deepEqual(typeErrors(room, ROOM_INFO), []);
  assert.equal(room.data.user_count, live.data.liveRoom.liveRoomStats.userCount);
});

test('the member check notices a missing member and an embedded string sent as an object', () => {
  const body = fixture('webcast_room_info__live.json');
  delete body.data.user_count;
  body.data.stream_url.hls_pull_url_params = { VCodec: 'h264' };
  assert.deepEqual(typeErrors(body, ROOM_INFO).map((e) => e.split(':')[0]), ['data.user_count', 'data.stream_url.hls_pull_url_params{}.VCodec']);
});
