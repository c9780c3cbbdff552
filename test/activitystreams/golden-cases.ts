// The golden cases: each real recorded sample (test/fixtures/samples/) parsed with the upstream's
// raw schemas, as the client would, then mapped. Shared by the golden test and its generator.
import { readFileSync } from 'node:fs';
import * as raw from '../../src/upstream/raw.ts';
import { toCollectionPage, toNote, toPerson, toVideo, videoUrl, withContext } from '../../src/activitystreams/index.ts';
import type { Dialect, MapContext } from '../../src/activitystreams/index.ts';

export const SAMPLES_DIR = new URL('../fixtures/samples/', import.meta.url);
export const GOLDEN_DIR = new URL('../fixtures/golden/', import.meta.url);

export const CTX: MapContext = { webOrigin: 'https://www.tiktok.com', chainToken: 'test-chain-token' };
export const NS = 'https://reelay.test/ns/social';
const BASE = 'https://reelay.test/v1/platform';

/** Resource type of the golden output (or of its page items), for the spec type checker. */
export type GoldenKind = 'Person' | 'Video' | 'Note';

export type GoldenCase = {
  name: string;
  sample: string;
  kind: GoldenKind;
  dialect: Dialect;
  /** True when the output is a collection page of `kind`. */
  page: boolean;
  build: () => object;
};

function sample(file: string): unknown {
  return JSON.parse(readFileSync(new URL(file, SAMPLES_DIR), 'utf8'));
}

function page<T>(partOf: string, totalItems: number, nextCursor: string | undefined, items: T[]) {
  const next = nextCursor === undefined ? undefined : `${partOf}?cursor=${nextCursor}&count=${items.length}`;
  return withContext(toCollectionPage({ partOf, totalItems, cursor: '0', nextCursor, next, items }), NS);
}

function userCase(name: string, file: string): GoldenCase {
  return {
    name, sample: file, kind: 'Person', dialect: 'standard', page: false,
    build: () => {
      const body = raw.RawUserDetailBody.parse(sample(file));
      const { user, stats, statsV2 } = body.userInfo;
      return withContext(toPerson(user, stats, statsV2, CTX), NS);
    },
  };
}

function postsCase(name: string, file: string): GoldenCase {
  return {
    name, sample: file, kind: 'Video', dialect: 'standard', page: true,
    build: () => {
      const body = raw.RawItemListBody.parse(sample(file));
      const items = (body.itemList ?? []).map((item) => toVideo(item, CTX));
      return page(`${BASE}/users/zg.520/videos`, 1605, 'Y3Vyc29yLTE', items);
    },
  };
}

function userListCase(name: string, file: string): GoldenCase {
  return {
    name, sample: file, kind: 'Person', dialect: 'standard', page: true,
    build: () => {
      const body = raw.RawUserListBody.parse(sample(file));
      const items = (body.userList ?? []).map((e) => toPerson(e.user, e.stats, e.statsV2, CTX));
      return page(`${BASE}/users/zg.520/followers`, body.total ?? items.length, 'Y3Vyc29yLTI', items);
    },
  };
}

function commentsCase(name: string, file: string, uniqueId: string, replies: boolean): GoldenCase {
  return {
    name, sample: file, kind: 'Note', dialect: 'standard', page: true,
    build: () => {
      const body = raw.RawCommentListBody.parse(sample(file));
      const comments = body.comments ?? [];
      const videoId = comments[0]?.aweme_id ?? '0';
      const url = videoUrl(CTX.webOrigin, uniqueId, videoId);
      const items = comments.map((c) => toNote(c, CTX, url));
      const parent = replies ? `/${comments[0]?.reply_id ?? '0'}/replies` : '';
      return page(`${BASE}/videos/${videoId}/comments${parent}`, body.total ?? items.length, undefined, items);
    },
  };
}

export const GOLDEN_CASES: GoldenCase[] = [
  userCase('user-detail', 'api_user_detail__neovolkov_2025-10.json'),
  userCase('user-detail-rehydration', 'rehydration_webapp_user_detail__gocomment_2025-03.json'),
  postsCase('user-videos', 'api_post_item_list__neovolkov_2025-10.json'),
  postsCase('user-videos-popular', 'api_post_item_list_popular__neovolkov_2025-10.json'),
  userListCase('user-followers', 'api_user_list_followers__neovolkov_2025-10.json'),
  userListCase('user-following', 'api_user_list_following__neovolkov_2025-10.json'),
  // The comment sample's video author is not in the payload; any handle resolves on the platform.
  commentsCase('video-comments', 'api_comment_list__tikhub_ideasseek_2026-02.json', 'shortsbyilyas', false),
  commentsCase('comment-replies', 'app_comment_list_reply__videodata_2021-08.json', 'videodata', true),
  {
    name: 'video-detail', sample: 'item_detail_itemStruct__back_tech_rapidapi_2023-01.json',
    kind: 'Video', dialect: 'standard', page: false,
    build: () => {
      const body = raw.RawItemDetailBody.parse({ itemInfo: sample('item_detail_itemStruct__back_tech_rapidapi_2023-01.json') });
      return withContext(toVideo(body.itemInfo!.itemStruct, CTX), NS);
    },
  },
  {
    name: 'tag-videos-from-search', sample: 'api_search_general_full__tikhub_ideasseek_2026-02.json',
    kind: 'Video', dialect: 'tag', page: true,
    build: () => {
      const body = sample('api_search_general_full__tikhub_ideasseek_2026-02.json') as { data: Array<{ item?: unknown }> };
      const items = body.data.filter((e) => e.item).map((e) => toVideo(raw.RawItem.parse(e.item), CTX, 'tag'));
      return page(`${BASE}/tags/foryou/videos`, 1000, 'Y3Vyc29yLTM', items);
    },
  },
];
