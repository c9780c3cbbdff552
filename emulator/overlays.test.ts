// The control endpoints change what every platform endpoint answers: user detail, post list,
// creator feed, tag feed, live room and item detail reflect a published video, an edited profile,
// a started or ended live and moved counts; bad input is a 400 with a stable error.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from './server.ts';
import type { Emulator } from './server.ts';
import { createTestClient } from './test-client.ts';
import type { TestClient } from './test-client.ts';

let em: Emulator;
let client: TestClient;

before(async () => {
  em = await startEmulator({ seed: 5 });
  client = await createTestClient(em.url);
});
after(() => em.close());

async function control(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${em.url}/__emulator${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}

test('a published video leads the post list and creator feed, counts in videoCount and joins its tag feed', async () => {
  const username = em.manifest.users.notLive;
  const before = await client.api('/api/user/detail/', { secUid: '', uniqueId: username });
  const secUid = before.userInfo.user.secUid as string;
  const tag = em.manifest.tags.popular;
  const tagBefore = await client.api('/api/challenge/detail/', { challengeName: tag });
  const published = await control('POST', `/users/${username}/videos`, { tags: [tag] });
  assert.equal(published.status, 201);
  assert.match(published.json.id, /^\d{19}$/);
  assert.deepEqual(published.json.tags, [tag]);

  const after = await client.api('/api/user/detail/', { secUid: '', uniqueId: username });
  assert.equal(Number(after.userInfo.statsV2.videoCount), Number(before.userInfo.statsV2.videoCount) + 1);
  const posts = await client.api('/api/post/item_list/', { secUid, count: 5, cursor: 0, needPinnedItemIds: 'false', post_item_list_request_type: 0 });
  assert.equal(posts.itemList[0].id, published.json.id);
  const feed = await client.api('/api/creator/item_list/', { secUid, type: 1, count: 5, cursor: 0 });
  assert.equal(feed.itemList[0].id, published.json.id);
  const detail = await client.api('/api/item/detail/', { itemId: published.json.id });
  assert.equal(detail.itemInfo.itemStruct.author.uniqueId, username);
  const tagAfter = await client.api('/api/challenge/detail/', { challengeName: tag });
  assert.equal(Number(tagAfter.challengeInfo.statsV2.videoCount), Number(tagBefore.challengeInfo.statsV2.videoCount) + 1);
});

test('a profile edit shows in user detail', async () => {
  const username = em.manifest.users.public;
  const edit = await control('PATCH', `/users/${username}`, { nickname: 'Renamed ✨', signature: 'A new bio' });
  assert.equal(edit.status, 200);
  const detail = await client.api('/api/user/detail/', { secUid: '', uniqueId: username });
  assert.equal(detail.userInfo.user.nickname, 'Renamed ✨');
  assert.equal(detail.userInfo.user.signature, 'A new bio');
});

test('a live started and ended through the control endpoint shows in the live room and room info', async () => {
  const username = em.manifest.users.notLive;
  const idle = await client.api('/api-live/user/room/', { uniqueId: username, sourceType: 54 });
  assert.equal(idle.data.liveRoom.status, 4);
  const started = await control('PUT', `/users/${username}/live`, { live: true });
  assert.equal(started.status, 200);
  const live = await client.api('/api-live/user/room/', { uniqueId: username, sourceType: 54 });
  assert.equal(live.data.liveRoom.status, 2);
  assert.equal(live.data.user.roomId, started.json.roomId);
  const info = (await (await fetch(`${em.url}/webcast/room/info/?room_id=${started.json.roomId}`)).json()) as { data: { status: number } };
  assert.equal(info.data.status, 2);
  assert.equal((await control('PUT', `/users/${username}/live`, { live: false })).status, 200);
  const ended = await client.api('/api-live/user/room/', { uniqueId: username, sourceType: 54 });
  assert.equal(ended.data.liveRoom.status, 4);
});

test('moved counts show in item detail, exact in statsV2', async () => {
  const id = em.manifest.videos.withReplies.id;
  const moved = await control('PATCH', `/videos/${id}`, { playCount: 123_456, diggCount: 789, commentCount: 55, shareCount: 4, collectCount: 3 });
  assert.equal(moved.status, 200);
  const stats = (await client.api('/api/item/detail/', { itemId: id })).itemInfo.itemStruct.statsV2;
  assert.deepEqual(
    [stats.playCount, stats.diggCount, stats.commentCount, stats.shareCount, stats.collectCount],
    ['123456', '789', '55', '4', '3'],
  );
});

test('bad control input is refused with a stable error', async () => {
  assert.deepEqual(await control('POST', '/users/no.such.user.zz/videos', {}), { status: 404, json: { error: 'unknown_user' } });
  assert.equal((await control('POST', `/users/${em.manifest.users.public}/videos`, { tags: ['no-such-tag-zz'] })).json.error, 'unknown_tag');
  assert.equal((await control('PUT', `/users/${em.manifest.users.public}/live`, { live: 'yes' })).json.error, 'invalid_body');
  assert.equal((await control('PATCH', `/videos/${em.manifest.videos.pinned}`, { playCount: -1 })).status, 400);
  assert.equal((await control('PATCH', '/videos/1234567890123456789', { playCount: 1 })).json.error, 'unknown_video');
});
