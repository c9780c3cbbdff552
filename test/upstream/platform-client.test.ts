// Every PlatformClient method against the emulator over real HTTP, paging every list to its end.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Fetched, PageRequest, RawPage } from '../../src/upstream/types.ts';
import { clientFor, skipWithoutEmulator, startEmulator, type Emulator } from './emulator-harness.ts';

const skip = skipWithoutEmulator();

/** Pages a list to its end (bounded), asserting no duplicate ids and a cursor on every non-last page. */
async function pageAll<T>(
  fetchPage: (page: PageRequest) => Promise<Fetched<RawPage<T>>>,
  idOf: (item: T) => string,
  count: number,
  pagesMax = 60,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor = '0';
  for (let n = 0; n < pagesMax; n += 1) {
    const { data } = await fetchPage({ cursor, count });
    ids.push(...data.items.map(idOf));
    if (!data.hasMore) return ids;
    assert.ok(data.nextCursor !== undefined && data.nextCursor !== cursor, 'a non-last page gives a new cursor');
    cursor = data.nextCursor;
  }
  assert.fail(`list did not end within ${pagesMax} pages`);
}

const assertNoDuplicates = (ids: string[]) => assert.equal(new Set(ids).size, ids.length, 'no item appears twice');

describe('platform client against the emulator', { skip }, () => {
  let emulator: Emulator;
  let client: ReturnType<typeof clientFor>['client'];
  let secUid: string;

  before(async () => {
    emulator = await startEmulator();
    client = clientFor(emulator).client;
    const user = await client.getUser(emulator.manifest.users.public);
    secUid = user.data.user.secUid as string;
  });
  after(async () => {
    await client?.close();
    await emulator?.close();
  });

  test('getUser returns the profile with stats and the media chain token', async () => {
    const user = await client.getUser(emulator.manifest.users.public);
    assert.equal(user.data.user.uniqueId, emulator.manifest.users.public);
    assert.ok(user.data.user.secUid);
    assert.ok(user.data.stats ?? user.data.statsV2);
  });

  test('getUserPosts pages to the end in every order without duplicates', async () => {
    for (const order of ['newest', 'popular', 'oldest'] as const) {
      const ids = await pageAll((p) => client.getUserPosts(secUid, order, p), (i) => i.id, 35);
      assert.ok(ids.length > 0, order);
      assertNoDuplicates(ids);
    }
  });

  test('newest and oldest orders cover the same videos (no gaps)', async () => {
    const newest = await pageAll((p) => client.getUserPosts(secUid, 'newest', p), (i) => i.id, 35);
    const oldest = await pageAll((p) => client.getUserPosts(secUid, 'oldest', p), (i) => i.id, 35);
    assert.deepEqual([...newest].sort(), [...oldest].sort());
  });

  test('reposts, likes, playlists and followers page to their end', async () => {
    assertNoDuplicates(await pageAll((p) => client.getUserReposts(secUid, p), (i) => i.id, 30));
    assertNoDuplicates(await pageAll((p) => client.getUserLikes(secUid, p), (i) => i.id, 35));
    assertNoDuplicates(await pageAll((p) => client.getUserPlaylists(secUid, p), (pl) => pl.mixId ?? pl.id ?? '', 30));
    const followers = await pageAll((p) => client.getUserFollowers(secUid, p), (e) => e.user.id, 30);
    assert.ok(followers.length > 0);
    assertNoDuplicates(followers);
  });

  test('getVideo, getComments (to the end) and getReplies', async () => {
    const { id, commentId } = emulator.manifest.videos.withReplies;
    const video = await client.getVideo(id);
    assert.equal(video.data.id, id);
    const comments = await pageAll((p) => client.getComments(id, p), (c) => c.cid, 50);
    assert.ok(comments.includes(commentId));
    assertNoDuplicates(comments);
    const replies = await pageAll((p) => client.getReplies(id, commentId, p), (c) => c.cid, 50);
    assert.ok(replies.length > 0);
    assertNoDuplicates(replies);
  });

  test('a photo post is returned as an item', async () => {
    const photo = await client.getVideo(emulator.manifest.videos.photo);
    assert.equal(photo.data.id, emulator.manifest.videos.photo);
  });

  test('getTag resolves the name and getTagVideos pages its feed', async () => {
    const tag = await client.getTag(emulator.manifest.tags.popular);
    assert.equal(tag.data.challenge.title, emulator.manifest.tags.popular);
    // The popular tag holds thousands of videos; paging all of it is the point of this test.
    const ids = await pageAll((p) => client.getTagVideos(tag.data.challenge.id, p), (i) => i.id, 30, 600);
    assert.ok(ids.length > 30);
    assert.ok(tag.data.videoCount === undefined || ids.length <= tag.data.videoCount);
    assertNoDuplicates(ids);
  });

  test('getLiveRoom finds the room, viewers and streams of a live user and getRoomInfo reads the same', async () => {
    const live = await client.getLiveRoom(emulator.manifest.users.live);
    assert.ok(live.data.roomId);
    assert.equal(live.data.status, 2);
    assert.ok(live.data.viewerCount !== undefined && live.data.viewerCount > 0);
    assert.deepEqual(live.data.streams.map((s) => s.quality), ['origin', 'hd', 'sd', 'ld']);
    const room = await client.getRoomInfo(live.data.roomId as string);
    assert.equal(room.data.status, 2);
    assert.equal(room.data.viewerCount, live.data.viewerCount);
    // URLs carry an expiry from the emulator's clock, so compare them without their query.
    const unsigned = (streams: typeof room.data.streams) =>
      streams.map((s) => ({ ...s, flv: s.flv?.split('?')[0], hls: s.hls?.split('?')[0] }));
    assert.deepEqual(unsigned(room.data.streams), unsigned(live.data.streams));
    const offline = await client.getLiveRoom(emulator.manifest.users.notLive);
    assert.notEqual(offline.data.status, 2);
  });

  test('getSubtitle downloads a WebVTT file of a video with transcripts', async () => {
    const { id } = emulator.manifest.videos.withTranscripts;
    const video = await client.getVideo(id);
    const info = video.data.video?.subtitleInfos?.[0];
    assert.ok(info, 'the video lists subtitles');
    const vtt = await client.getSubtitle(info.Url);
    assert.match(vtt.data, /^WEBVTT/);
  });
});
