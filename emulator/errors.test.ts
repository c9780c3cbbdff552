// Each edge case answers the platform's own code, in the right dialect, over real HTTP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from './server.ts';
import type { Emulator } from './server.ts';
import { createTestClient, scopeOf } from './test-client.ts';
import type { TestClient } from './test-client.ts';

let em: Emulator;
let client: TestClient;
const secUids: Record<string, string> = {};

before(async () => {
  em = await startEmulator({ seed: 3 });
  client = await createTestClient(em.url);
  for (const [role, name] of Object.entries(em.manifest.users)) {
    const body = await client.api('/api/user/detail/', { secUid: '', uniqueId: name });
    if (body.userInfo) secUids[role] = body.userInfo.user.secUid;
  }
});
after(() => em.close());

describe('platform status codes', () => {
  test('every JSON body carries extra and log_pb; camelCase bodies carry both status spellings', async () => {
    const body = await client.api('/api/user/detail/', { secUid: '', uniqueId: em.manifest.users.public });
    assert.deepEqual(Object.keys(body.extra).sort(), ['fatal_item_ids', 'logid', 'now']);
    assert.equal(body.log_pb.impr_id, body.extra.logid);
    assert.equal(body.statusCode, 0);
    assert.equal(body.status_code, 0);
    assert.equal(body.status_msg, '');
    assert.equal(typeof body.userInfo.stats.followerCount, 'number');
    assert.equal(typeof body.userInfo.statsV2.followerCount, 'string');
    const comments = await client.api('/api/comment/list/', { aweme_id: em.manifest.videos.withReplies.id });
    assert.equal(comments.statusCode, undefined);
    assert.equal(comments.status_code, 0);
    assert.ok(comments.extra.logid);
  });

  test('unknown user 10202, banned 10221, private detail 0 with privateAccount, private lists 10222', async () => {
    assert.equal((await client.api('/api/user/detail/', { secUid: '', uniqueId: 'no.such.user_x' })).statusCode, 10202);
    assert.equal((await client.api('/api/user/detail/', { secUid: '', uniqueId: em.manifest.users.banned })).statusCode, 10221);
    const priv = await client.api('/api/user/detail/', { secUid: '', uniqueId: em.manifest.users.private });
    assert.equal(priv.statusCode, 0);
    assert.equal(priv.userInfo.user.privateAccount, true);
    for (const path of ['/api/post/item_list/', '/api/favorite/item_list/', '/api/repost/item_list/', '/api/user/list/']) {
      const body = await client.api(path, { secUid: secUids.private, count: 10, cursor: 0, scene: 67 });
      assert.equal(body.statusCode, 10222, path);
    }
  });

  test('deleted 10204, private post 10216, geo-blocked 10231 on item detail and comments', async () => {
    const v = em.manifest.videos;
    const cases: Array<[string, number]> = [[v.deleted, 10204], [v.private, 10216], [v.geoBlocked, 10231], ['7000000000000000001', 10204]];
    for (const [id, code] of cases) {
      assert.equal((await client.api('/api/item/detail/', { itemId: id })).statusCode, code, id);
      assert.equal((await client.api('/api/comment/list/', { aweme_id: id })).status_code, code, id);
    }
  });

  test('bad parameters answer 10201: count over 35, missing secUid, missing itemId', async () => {
    assert.equal((await client.api('/api/post/item_list/', { secUid: secUids.public, count: 36, cursor: 0 })).statusCode, 10201);
    assert.equal((await client.api('/api/post/item_list/', { count: 10 })).statusCode, 10201);
    assert.equal((await client.api('/api/item/detail/', {})).statusCode, 10201);
    assert.equal((await client.api('/api/user/detail/', { secUid: '', uniqueId: '' })).statusCode, 10201);
  });

  test('hidden likes answer 0 with no itemList; hidden followers answer 0 with no userList', async () => {
    const likes = await client.api('/api/favorite/item_list/', { secUid: secUids.hiddenLikes, count: 30, cursor: 0 });
    assert.equal(likes.statusCode, 0);
    assert.equal('itemList' in likes, false);
    assert.equal(likes.hasMore, false);
    const followers = await client.api('/api/user/list/', { secUid: secUids.hiddenFollowers, count: 30, minCursor: 0, maxCursor: 0, scene: 67 });
    assert.equal(followers.statusCode, 0);
    assert.equal('userList' in followers, false);
  });

  test('photo posts carry imagePost, the transcript video carries ASR and MT webvtt subtitles', async () => {
    const photo = await client.api('/api/item/detail/', { itemId: em.manifest.videos.photo });
    assert.ok(photo.itemInfo.itemStruct.imagePost.images.length >= 2);
    const t = em.manifest.videos.withTranscripts;
    const video = await client.api('/api/item/detail/', { itemId: t.id });
    const subs = video.itemInfo.itemStruct.video.subtitleInfos;
    assert.equal(subs.filter((s: any) => s.Source === 'ASR').length, 1);
    assert.ok(subs.every((s: any) => s.Format === 'webvtt' && s.Url.startsWith(em.url)));
    assert.deepEqual(subs.map((s: any) => s.LanguageCodeName), ['eng-US', 'deu-DE', 'fra-FR', 'spa-ES', 'jpn-JP', 'cmn-Hans-CN']);
    assert.deepEqual(t.languages, ['en-US', 'de-DE', 'fr-FR', 'es-ES', 'ja-JP', 'zh-Hans-CN']);
    assert.match(video.itemInfo.itemStruct.id, /^\d{19}$/);
    assert.ok(BigInt(video.itemInfo.itemStruct.id) > 2n ** 53n);
  });

  test('live: a live user has a room with stream URLs, a non-live one status 4, unknown 19881007', async () => {
    const live = await client.api('/api-live/user/room/', { uniqueId: em.manifest.users.live, sourceType: 54 });
    assert.equal(live.data.liveRoom.status, 2);
    assert.match(live.data.user.roomId, /^\d{19}$/);
    assert.equal(typeof live.data.liveRoom.streamData.pull_data.stream_data, 'string');
    const room = await (await client.get(`/webcast/room/info/?aid=1988&room_id=${live.data.user.roomId}`)).json() as any;
    assert.equal(room.status_code, 0);
    assert.equal(room.data.status, 2);
    assert.deepEqual(Object.keys(room.data.stream_url.flv_pull_url), ['FULL_HD1', 'HD1', 'SD1', 'SD2']);
    assert.equal(typeof room.data.stream_url.live_core_sdk_data.pull_data.stream_data, 'string');
    const flv = await client.get(room.data.stream_url.flv_pull_url.HD1.slice(em.url.length));
    assert.equal(flv.status, 200);
    const alive = await (await client.get(`/webcast/room/check_alive/?aid=1988&room_ids=${live.data.user.roomId}`)).json() as any;
    assert.equal(alive.data[0].alive, true);
    const off = await client.api('/api-live/user/room/', { uniqueId: em.manifest.users.notLive, sourceType: 54 });
    assert.equal(off.data.liveRoom.status, 4);
    assert.equal(off.data.user.roomId, '');
    const none = await client.api('/api-live/user/room/', { uniqueId: 'nobody.here_zz', sourceType: 54 });
    assert.equal(none.statusCode, 19881007);
    assert.equal(none.message, 'user_not_found');
  });

  test('pages carry the rehydration scope with their own statusCode', async () => {
    const profile = scopeOf(await (await client.get(`/@${em.manifest.users.public}`)).text());
    assert.ok(profile['webapp.app-context']);
    assert.equal(profile['webapp.user-detail'].statusCode, 0);
    assert.deepEqual(profile['webapp.user-detail'].userInfo.itemList, []);
    const missing = scopeOf(await (await client.get('/@no.such.user_x')).text());
    assert.equal(missing['webapp.user-detail'].statusCode, 10202);
    const video = scopeOf(await (await client.get(`/@_/video/${em.manifest.videos.withReplies.id}`)).text());
    assert.equal(video['webapp.video-detail'].itemInfo.itemStruct.id, em.manifest.videos.withReplies.id);
    const deleted = scopeOf(await (await client.get(`/@_/video/${em.manifest.videos.deleted}`)).text());
    assert.equal(deleted['webapp.video-detail'].statusCode, 10204);
    const tag = scopeOf(await (await client.get(`/tag/${em.manifest.tags.popular}`)).text());
    assert.equal(tag['webapp.challenge-detail'].challengeInfo.challenge.title, em.manifest.tags.popular);
  });
});
