// Real recorded platform bodies parse with the raw.ts schemas and normalise to the expected pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { UpstreamFailure } from './classify.ts';
import { parsers } from './normalize.ts';
import { RawCommentListBody, RawItem, RawItemListBody, RawUserDetailBody, RawUserListBody } from './raw.ts';

const text = (name: string) => readFileSync(new URL(`../../test/fixtures/platform/${name}`, import.meta.url), 'utf8');
const json = (name: string) => JSON.parse(text(name));

test('every real sample parses with its raw.ts schema', () => {
  assert.ok(RawUserDetailBody.safeParse(json('api_user_detail__neovolkov_2025-10.json')).success);
  assert.ok(RawUserDetailBody.safeParse(json('rehydration_webapp_user_detail__gocomment_2025-03.json')).success);
  assert.ok(RawItemListBody.safeParse(json('api_post_item_list__neovolkov_2025-10.json')).success);
  assert.ok(RawItemListBody.safeParse(json('api_post_item_list_popular__neovolkov_2025-10.json')).success);
  assert.ok(RawUserListBody.safeParse(json('api_user_list_followers__neovolkov_2025-10.json')).success);
  assert.ok(RawUserListBody.safeParse(json('api_user_list_following__neovolkov_2025-10.json')).success);
  assert.ok(RawCommentListBody.safeParse(json('api_comment_list__tikhub_ideasseek_2026-02.json')).success);
  assert.ok(RawCommentListBody.safeParse(json('app_comment_list_reply__videodata_2021-08.json')).success);
  assert.ok(RawItem.safeParse(json('item_detail_itemStruct__back_tech_rapidapi_2023-01.json').itemStruct).success);
});

test('user detail normalises to user, rounded stats and exact statsV2', () => {
  const profile = parsers.userDetail(text('api_user_detail__neovolkov_2025-10.json'));
  assert.equal(typeof profile.user.uniqueId, 'string');
  assert.ok(profile.user.secUid);
  assert.ok(profile.stats);
  assert.equal(typeof profile.statsV2?.followerCount, 'string');
});

test('post lists give a string cursor and boolean hasMore (latest: ms timestamp, popular: small number)', () => {
  const latest = parsers.itemList(text('api_post_item_list__neovolkov_2025-10.json'));
  assert.deepEqual([latest.items.length, latest.hasMore, latest.nextCursor, latest.total], [1, true, '1758331327601', undefined]);
  assert.equal(latest.items[0].id, '7513039993741397256');
  const popular = parsers.itemList(text('api_post_item_list_popular__neovolkov_2025-10.json'));
  assert.equal(popular.nextCursor, '31865');
});

test('followers continue from the returned minCursor and carry the total', () => {
  const page = parsers.followers(text('api_user_list_followers__neovolkov_2025-10.json'));
  assert.deepEqual(
    [page.items.map((e) => e.user.id), page.hasMore, page.nextCursor, page.total],
    [['7420366745511658502', '7455102459049985030'], true, '1760897938', 427682],
  );
});

test('comments and replies turn has_more 0/1 into a boolean and keep the offset cursor', () => {
  const comments = parsers.comments(text('api_comment_list__tikhub_ideasseek_2026-02.json'));
  assert.deepEqual([comments.items.length, comments.hasMore, comments.nextCursor, comments.total], [19, true, '20', 227]);
  assert.equal(comments.items[0].cid, '7603301260598838032');
  const replies = parsers.comments(text('app_comment_list_reply__videodata_2021-08.json'));
  assert.deepEqual([replies.items.length, replies.hasMore, replies.nextCursor, replies.total], [2, true, '20', 22]);
});

test('item detail accepts the recorded itemStruct inside the API envelope', () => {
  const envelope = { ...json('item_detail_itemStruct__back_tech_rapidapi_2023-01.json'), statusCode: 0 };
  const body = JSON.stringify({ itemInfo: envelope, status_code: 0 });
  const item = parsers.itemDetail(body);
  assert.equal(item.id, envelope.itemStruct.id);
});

test('a profile page yields the same profile shape as the API', () => {
  const scope = json('rehydration_webapp_user_detail__gocomment_2025-03.json');
  const html = `<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application/json">${JSON.stringify({ __DEFAULT_SCOPE__: { 'webapp.user-detail': scope } })}</script>`;
  const profile = parsers.userPage(html);
  assert.equal(profile.user.uniqueId, 'taylorswift');
});

test('shape and visibility failures are classified', () => {
  const reason = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      assert.ok(error instanceof UpstreamFailure);
      return `${error.outcome}:${error.reason}`;
    }
    return 'no error';
  };
  assert.equal(reason(() => parsers.followers('{"statusCode":0,"hasMore":false,"total":0}')), 'private_content:hidden_followers');
  assert.equal(reason(() => parsers.likes('{"statusCode":0,"hasMore":false}')), 'private_content:hidden_likes');
  assert.equal(reason(() => parsers.itemList('{"statusCode":0,"itemList":[{"id":1}]}')), 'upstream_error:changed_shape');
  assert.equal(reason(() => parsers.itemList('{"statusCode":0,')), 'upstream_error:malformed_json');
  assert.equal(reason(() => parsers.userDetail('{"statusCode":10222,"userInfo":{}}')), 'private_account:private_account');
  assert.equal(reason(() => parsers.userPage('<html>no data</html>')), 'upstream_error:no_rehydration');
  const page = `<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application/json">{"__DEFAULT_SCOPE__":{"webapp.video-detail":{"statusCode":10204}}}</script>`;
  assert.equal(reason(() => parsers.videoPage(page)), 'not_found:video_not_found');
  assert.equal(reason(() => parsers.liveRoom('{"statusCode":19881007,"message":"user_not_found"}')), 'not_found:user_not_found');
});

test('webcast room answers: missing room is not_found, restricted LIVE is private_content', () => {
  const outcome = (body: object) => {
    try {
      parsers.roomInfo(JSON.stringify(body));
      return 'ok';
    } catch (error) {
      return (error as UpstreamFailure).outcome;
    }
  };
  assert.equal(outcome({ status_code: 30003, data: { message: 'Room does not exist' } }), 'not_found');
  assert.equal(outcome({ status_code: 4003110, data: { message: 'This account is private' } }), 'private_content');
  assert.equal(outcome({ status_code: 50001, data: { message: 'busy' } }), 'upstream_error');
  assert.equal(outcome({ status_code: 0, data: { status: 2, id_str: '1' } }), 'ok');
});

test('the creator feed continues from the last item\'s createTime in ms, a week back when stuck, and ends at the platform\'s epoch', () => {
  const item = (id: string, createTime: number) => ({ id, createTime, desc: '', author: { id: '1', uniqueId: 'a' } });
  const page = (items: object[], hasMorePrevious: boolean) => JSON.stringify({ statusCode: 0, status_code: 0, itemList: items, hasMorePrevious });
  const now = 1_760_000_000_000;
  const moved = parsers.creatorList(now)(page([item('2', 1_759_000_000), item('1', 1_758_000_000)], true));
  assert.deepEqual([moved.nextCursor, moved.hasMore, moved.items.length], ['1758000000000', true, 2]);
  // Nothing before the cursor in this window: step back seven days rather than ask again.
  const empty = parsers.creatorList(now)(page([], true));
  assert.deepEqual([empty.nextCursor, empty.hasMore], [String(now - 604_800_000), true]);
  // The last item sits exactly at the cursor (same millisecond): the cursor would not move.
  const same = parsers.creatorList(1_758_000_000_000)(page([item('1', 1_758_000_000)], true));
  assert.equal(same.nextCursor, String(1_758_000_000_000 - 604_800_000));
  assert.equal(parsers.creatorList(now)(page([item('1', 1_758_000_000)], false)).hasMore, false);
  const ancient = parsers.creatorList(1_472_706_000_000 + 1000)(page([], true));
  assert.equal(ancient.hasMore, false, 'a cursor before 2016-09-01 ends the feed');
});
