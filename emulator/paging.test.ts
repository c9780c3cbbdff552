// Paging exactness over real HTTP: each list, paged from its first cursor to hasMore:false,
// yields every item exactly once, and the same seed always yields the same data.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from './server.ts';
import type { Emulator } from './server.ts';
import { createTestClient } from './test-client.ts';
import type { TestClient } from './test-client.ts';

let em: Emulator;
let client: TestClient;
let secUid: string;

before(async () => {
  em = await startEmulator({ seed: 7 });
  client = await createTestClient(em.url);
  const detail = await client.api('/api/user/detail/', { secUid: '', uniqueId: em.manifest.users.public });
  secUid = detail.userInfo.user.secUid;
});
after(() => em.close());

type Next = (body: Record<string, any>) => Record<string, string | number>;

async function pageAll(path: string, first: Record<string, string | number>, itemsOf: (b: any) => any[] | undefined, next: Next, hasMore: (b: any) => boolean) {
  const ids: string[] = [];
  let params = first;
  for (let guard = 0; guard < 500; guard++) {
    const body = await client.api(path, params);
    assert.equal(body.statusCode ?? body.status_code, 0, `${path} answered ${JSON.stringify(body).slice(0, 200)}`);
    for (const item of itemsOf(body) ?? []) ids.push(item.id ?? item.cid ?? item.user?.id ?? item.mixId);
    if (!hasMore(body)) return ids;
    params = { ...first, ...next(body) };
  }
  throw new Error('paging did not end within 500 pages');
}

const items = (b: any) => b.itemList;
const camelMore = (b: any) => b.hasMore === true;
const byCursor: Next = (b) => ({ cursor: b.cursor });

function assertExact(ids: string[], expected: number) {
  assert.equal(new Set(ids).size, ids.length, 'no duplicates');
  assert.equal(ids.length, expected);
}

describe('paging is exact', () => {
  test('posts in all three orders list every visible post once, pinned first for newest', async () => {
    const detail = await client.api('/api/user/detail/', { secUid, uniqueId: '' });
    const total = Number(detail.userInfo.statsV2.videoCount);
    const lists: string[][] = [];
    for (const type of [0, 1, 2]) {
      const first = { secUid, count: 35, cursor: 0, coverFormat: 2, needPinnedItemIds: 'true', post_item_list_request_type: type };
      const ids = await pageAll('/api/post/item_list/', first, items, byCursor, camelMore);
      assertExact(ids, total);
      lists.push(ids);
    }
    assert.deepEqual([...lists[0]].sort(), [...lists[2]].sort());
    const firstPage = await client.api('/api/post/item_list/', { secUid, count: 10, cursor: 0, needPinnedItemIds: 'true', post_item_list_request_type: 0 });
    assert.equal(firstPage.itemList[0].isPinnedItem, true);
    assert.match(firstPage.cursor, /^\d{13}$/);
  });

  test('newest-first cursors decrease, oldest-first increase, popular is a small decreasing number', async () => {
    const c0 = await client.api('/api/post/item_list/', { secUid, count: 20, cursor: 0, post_item_list_request_type: 0 });
    const c0b = await client.api('/api/post/item_list/', { secUid, count: 20, cursor: c0.cursor, post_item_list_request_type: 0 });
    assert.ok(Number(c0b.cursor) < Number(c0.cursor));
    const c2 = await client.api('/api/post/item_list/', { secUid, count: 20, cursor: 0, post_item_list_request_type: 2 });
    const c2b = await client.api('/api/post/item_list/', { secUid, count: 20, cursor: c2.cursor, post_item_list_request_type: 2 });
    assert.ok(Number(c2b.cursor) > Number(c2.cursor));
    const c1 = await client.api('/api/post/item_list/', { secUid, count: 20, cursor: 0, post_item_list_request_type: 1 });
    assert.ok(Number(c1.cursor) < 100_000);
  });

  test('reposts, likes, playlists and playlist items page exactly', async () => {
    const reposts = await pageAll('/api/repost/item_list/', { secUid, count: 16, cursor: 0 }, items, byCursor, camelMore);
    assert.ok(reposts.length > 10);
    assertExact(reposts, new Set(reposts).size);
    const likes = await pageAll('/api/favorite/item_list/', { secUid, count: 30, cursor: 0 }, items, byCursor, camelMore);
    const detail = await client.api('/api/user/detail/', { secUid, uniqueId: '' });
    assertExact(likes, Number(detail.userInfo.statsV2.diggCount));
    const playlists = await pageAll('/api/user/playlist/', { secUid, count: 2, cursor: 0 }, (b) => b.playList, byCursor, camelMore);
    assertExact(playlists, 3);
    const first = await client.api('/api/user/playlist/', { secUid, count: 1, cursor: 0 });
    const mix = first.playList[0];
    const mixItems = await pageAll('/api/mix/item_list/', { mixId: mix.mixId, count: 5, cursor: 0 }, items, byCursor, camelMore);
    assertExact(mixItems, mix.videoCount);
  });

  test('followers and following page by minCursor and match total', async () => {
    for (const scene of [67, 21]) {
      const first = { secUid, count: 30, maxCursor: 0, minCursor: 0, scene };
      const ids = await pageAll('/api/user/list/', first, (b) => b.userList, (b) => ({ minCursor: b.minCursor, maxCursor: b.minCursor }), camelMore);
      const head = await client.api('/api/user/list/', first);
      assertExact(ids, head.total);
    }
  });

  test('comments and replies page by offset with has_more 0/1 and total', async () => {
    const { id, commentId } = em.manifest.videos.withReplies;
    const comments = await pageAll('/api/comment/list/', { aweme_id: id, count: 20, cursor: 0 }, (b) => b.comments, byCursor, (b) => b.has_more === 1);
    assertExact(comments, 45);
    const replies = await pageAll('/api/comment/list/reply/', { item_id: id, comment_id: commentId, count: 10, cursor: 0 }, (b) => b.comments, byCursor, (b) => b.has_more === 1);
    assertExact(replies, 27);
  });

  test('the popular tag feed pages exactly through hundreds of videos', async () => {
    const detail = await client.api('/api/challenge/detail/', { challengeName: em.manifest.tags.popular });
    const { id } = detail.challengeInfo.challenge;
    const total = Number(detail.challengeInfo.statsV2.videoCount);
    assert.ok(total >= 300);
    const ids = await pageAll('/api/challenge/item_list/', { challengeID: id, count: 35, cursor: 0 }, items, byCursor, camelMore);
    assertExact(ids, total);
  });

  test('item lists sometimes return fewer items than count, deterministically', async () => {
    const counts: number[] = [];
    let cursor: string | number = 0;
    for (let k = 0; k < 12; k++) {
      const body = await client.api('/api/post/item_list/', { secUid, count: 6, cursor, post_item_list_request_type: 2 });
      counts.push(body.itemList.length);
      cursor = body.cursor;
      if (!body.hasMore) break;
    }
    assert.ok(counts.some((n) => n < 6), `some page short: ${counts}`);
  });
});

describe('dataset determinism', () => {
  test('the same seed gives the same manifest and the same bodies; another seed differs', async () => {
    const twin = await startEmulator({ seed: 7 });
    const other = await startEmulator({ seed: 8 });
    try {
      assert.deepEqual(twin.manifest, em.manifest);
      assert.notDeepEqual(other.manifest.users, em.manifest.users);
      const twinClient = await createTestClient(twin.url);
      const a = await client.api('/api/item/detail/', { itemId: em.manifest.videos.withTranscripts.id });
      const b = await twinClient.api('/api/item/detail/', { itemId: em.manifest.videos.withTranscripts.id });
      // Expiry times and link signatures follow the wall clock, which may tick between the two reads.
      const strip = (x: any) => JSON.stringify(x.itemInfo.itemStruct).replaceAll(em.url, '').replaceAll(twin.url, '').replace(/&l=\w+|expire[s]?=\d+|x-expires=\d+|&signature=\w+|"(?:UrlExpire|expire)":"?\d+"?/g, '');
      assert.equal(strip(a), strip(b));
    } finally {
      await twin.close();
      await other.close();
    }
  });

  test('the dataset is large: 2,000+ users, 50,000+ videos, 200,000+ comments', () => {
    const { counts } = em.manifest;
    assert.ok(counts.users >= 2000 && counts.videos >= 50_000 && counts.comments >= 200_000, JSON.stringify(counts));
  });
});
