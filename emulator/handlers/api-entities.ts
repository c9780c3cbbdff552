// Single-entity endpoints (user detail, item detail, challenge detail), the follower/following
// list, and the snake_case comment and reply lists.
import type { Dataset } from '../dataset/dataset.ts';
import type { Comment } from '../dataset/comments.ts';
import type { Video } from '../dataset/videos.ts';
import { itemStructOf, challengeOf } from '../wire/item.ts';
import { commentUserOf, profileUserOf, statsPair, userCounts, userListEntryOf } from '../wire/user.ts';
import type { WireContext } from '../wire/urls.ts';
import { camel, intParam, snake } from './types.ts';
import type { Handler, PlatformRequest } from './types.ts';
import { listOwner } from './api-lists.ts';
import { pageByKeyBelow, pageByOffset } from './paging.ts';

export function shareMetaOfUser(ds: Dataset, user: Dataset['users'][number]) {
  const c = userCounts(ds, user);
  return {
    desc: `@${user.uniqueId} — ${c.followerCount} followers, ${c.followingCount} following, ${c.heart} likes — Watch amazing short videos created by ${user.nickname}.`,
    title: `${user.nickname} on TikTok`,
  };
}

export const userDetail: Handler = (req) => {
  const secUid = req.query.get('secUid');
  const uniqueId = req.query.get('uniqueId');
  if (!secUid && !uniqueId) return camel(req, 10201);
  const user = secUid ? req.ds.userBySecUid(secUid) : req.ds.userByUniqueId(uniqueId ?? '');
  if (!user) return camel(req, 10202);
  if (user.banned) return camel(req, 10221);
  return camel(req, 0, {
    shareMeta: shareMetaOfUser(req.ds, user),
    userInfo: { ...statsPair(userCounts(req.ds, user)), user: profileUserOf(req.ctx, user) },
  });
};

/** Status code for an item id: 0 when viewable, else the platform's reason. */
export function itemStatus(ds: Dataset, video: Video | undefined): number {
  if (!video || video.deleted) return 10204;
  if (video.owner.banned) return 10204;
  if (video.geoBlocked) return 10231;
  if (video.privateItem) return 10216;
  if (video.owner.privateAccount) return 10222;
  return 0;
}

export function shareMetaOfVideo(video: Video) {
  return { desc: video.caption, title: `${video.owner.nickname} on TikTok` };
}

export const itemDetail: Handler = (req) => {
  const itemId = req.query.get('itemId');
  if (!itemId) return camel(req, 10201);
  const video = req.ds.videos.byId(itemId);
  const code = itemStatus(req.ds, video);
  if (code !== 0 || !video) return camel(req, code);
  return camel(req, 0, {
    itemInfo: { itemStruct: itemStructOf(req.ctx, req.ds, video) },
    shareMeta: shareMetaOfVideo(video),
  });
};

export function challengeInfoOf(ds: Dataset, tagIndex: number) {
  const tag = ds.lists.tags[tagIndex];
  const videoCount = ds.lists.tagVideoIndexes(tag).length;
  const viewCount = videoCount * 48_311 + tagIndex;
  return {
    challenge: { ...challengeOf(ds, tagIndex), isCommerce: false, splitTitle: '', stats: { videoCount, viewCount } },
    stats: { videoCount, viewCount: Math.round(viewCount / 100_000) * 100_000 },
    statsV2: { videoCount: String(videoCount), viewCount: String(viewCount) },
  };
}

export const challengeDetail: Handler = (req) => {
  const name = req.query.get('challengeName');
  if (!name) return camel(req, 10201);
  const tag = req.ds.lists.tagByName(name.replace(/^#/, ''));
  if (!tag) return camel(req, 10205);
  return camel(req, 0, {
    challengeInfo: challengeInfoOf(req.ds, tag.index),
    shareMeta: { desc: `Watch videos with #${tag.title} on TikTok`, title: `#${tag.title} on TikTok` },
  });
};

export const userList: Handler = (req) => {
  const owner = listOwner(req);
  if ('error' in owner) return owner.error;
  const scene = req.query.get('scene') ?? '67';
  if (scene !== '67' && scene !== '21') return camel(req, 10201);
  const count = intParam(req.query, 'count', 30);
  const cursor = intParam(req.query, 'minCursor', 0);
  if (count === undefined || cursor === undefined || count < 1 || cursor < 0) return camel(req, 10201);
  const extraCursor = scene === '21' ? { maxCursor: 0 } : {};
  // Hidden lists omit `userList` entirely (PLATFORM.md §2.7).
  if (owner.user.hiddenFollowers) {
    return camel(req, 0, { hasMore: false, isTruncated: false, minCursor: 0, ...extraCursor, total: 0 });
  }
  const list = scene === '67' ? req.ds.lists.followers(owner.user) : req.ds.lists.following(owner.user);
  const page = pageByKeyBelow(list, (k) => k.key, cursor, Math.min(count, 30));
  return camel(req, 0, {
    hasMore: page.hasMore,
    isTruncated: false,
    minCursor: page.cursor,
    ...extraCursor,
    total: list.length,
    userList: page.items.map((k) => userListEntryOf(req.ctx, req.ds, k.value)),
  });
};

function commentOf(ctx: WireContext, c: Comment) {
  return {
    allow_download_photo: false, author_pin: c.stickPosition !== 0, aweme_id: c.video.id, cid: c.cid,
    collect_stat: 0, comment_language: c.language, comment_post_item_ids: null, create_time: c.createTime,
    digg_count: c.diggCount, fold_status: -1, image_list: null, is_author_digged: c.authorDigged,
    is_comment_translatable: c.language !== 'un', is_high_purchase_intent: false, label_list: null, no_show: false,
    reply_comment: null, reply_comment_total: c.replyTotal, reply_id: c.replyId, reply_to_reply_id: c.replyToReplyId,
    share_info: {
      acl: { code: 0, extra: '{}' },
      desc: `${c.author.nickname}’s comment: ${c.text}`,
      title: c.video.caption,
      url: `https://m.tiktok.com/v/${c.video.id}.html?share_comment_id=${c.cid}&share_item_id=${c.video.id}`,
    },
    sort_extra_score: { reply_score: 0.01, show_more_score: 0.002 }, sort_tags: '{"top_list":1}',
    status: 1, stick_position: c.stickPosition, text: c.text, text_extra: [], thread_has_more: false,
    thread_id: 0, trans_btn_style: 0, user: commentUserOf(ctx, c.author), user_buried: false, user_digged: 0,
  };
}

function commentPage(req: PlatformRequest, all: Comment[] | { total: number; at: (i: number) => Comment }) {
  const count = intParam(req.query, 'count', 20);
  const cursor = intParam(req.query, 'cursor', 0);
  if (count === undefined || cursor === undefined || count < 1 || cursor < 0) return snake(req, 10201);
  const total = Array.isArray(all) ? all.length : all.total;
  const indexes = pageByOffset(Array.from({ length: Math.min(total, cursor + 60) }, (_, i) => i), cursor, Math.min(count, 50));
  const comments = indexes.items.map((i) => commentOf(req.ctx, Array.isArray(all) ? all[i] : all.at(i)));
  return snake(req, 0, {
    alias_comment_deleted: false,
    comments: total === 0 ? null : comments,
    cursor: indexes.cursor,
    has_filtered_comments: 0,
    has_more: cursor + comments.length < total ? 1 : 0,
    reply_style: 2,
    top_gifts: null,
    total,
  });
}

export const commentList: Handler = (req) => {
  const id = req.query.get('aweme_id');
  if (!id) return snake(req, 10201);
  const video = req.ds.videos.byId(id);
  const code = itemStatus(req.ds, video);
  if (code !== 0 || !video) return snake(req, code);
  return commentPage(req, { total: video.topComments, at: (i) => req.ds.comments.topLevel(video, i) });
};

export const replyList: Handler = (req) => {
  const itemId = req.query.get('item_id');
  const commentId = req.query.get('comment_id');
  if (!itemId || !commentId) return snake(req, 10201);
  const video = req.ds.videos.byId(itemId);
  const code = itemStatus(req.ds, video);
  if (code !== 0 || !video) return snake(req, code);
  const parent = req.ds.comments.byId(commentId);
  if (!parent || parent.video.id !== video.id) return snake(req, 10204);
  return commentPage(req, req.ds.comments.replies(parent));
};
