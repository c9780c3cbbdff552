// Item lists of a user or tag or playlist (camelCase `itemList`, `cursor`, `hasMore`):
// posts in three orders, reposts, likes, playlists, playlist items and tag feeds.
import { hash32 } from '../prng.ts';
import type { User } from '../dataset/users.ts';
import type { Video } from '../dataset/videos.ts';
import { itemStructOf } from '../wire/item.ts';
import { camel, intParam } from './types.ts';
import type { Handler, PlatformRequest, Reply } from './types.ts';
import { pageByKeyAbove, pageByKeyBelow, pageByOffset, pagePopular, servedCount } from './paging.ts';
import type { Page } from './paging.ts';
import { authorOf } from '../wire/user.ts';
import { coverUrl } from '../wire/urls.ts';

export const ITEM_COUNT_MAX = 35;

/** A post's millisecond cursor key: its createTime with a stable sub-second part. */
export const postKey = (v: Video) => v.createTime * 1000 + (hash32(v.index, 99) % 1000);

type Owner = { user: User } | { error: Reply };

/** Resolves `secUid` for list endpoints, answering the platform's codes for every edge case. */
export function listOwner(req: PlatformRequest, allowPrivate = false): Owner {
  const secUid = req.query.get('secUid');
  if (!secUid) return { error: camel(req, 10201) };
  const user = req.ds.userBySecUid(secUid);
  if (!user) return { error: camel(req, 10202) };
  if (user.banned) return { error: camel(req, 10221) };
  if (user.privateAccount && !allowPrivate) return { error: camel(req, 10222) };
  return { user };
}

/** `count` for item lists: default 30, 1..35, else 10201 (PLATFORM.md §2.3). */
export function itemCount(req: PlatformRequest): number | undefined {
  const count = intParam(req.query, 'count', 30);
  return count === undefined || count < 1 || count > ITEM_COUNT_MAX ? undefined : count;
}

function itemPage(req: PlatformRequest, page: Page<Video>, cursor: string): Reply {
  return camel(req, 0, {
    cursor,
    hasMore: page.hasMore,
    itemList: page.items.map((v) => itemStructOf(req.ctx, req.ds, v)),
  });
}

function listSetup(req: PlatformRequest): { user: User; count: number; cursor: number } | Reply {
  const owner = listOwner(req);
  if ('error' in owner) return owner.error;
  const count = itemCount(req);
  const cursor = intParam(req.query, 'cursor', 0);
  if (count === undefined || cursor === undefined || cursor < 0) return camel(req, 10201);
  return { user: owner.user, count: servedCount(count, owner.user.index, cursor), cursor };
}

const isReply = (x: object): x is Reply => 'status' in x;

export const postList: Handler = (req) => {
  const setup = listSetup(req);
  if (isReply(setup)) return setup;
  const { user, count, cursor } = setup;
  const type = req.query.get('post_item_list_request_type') ?? '0';
  const posts = req.ds.lists.posts(user);
  if (type === '2') {
    const page = pageByKeyAbove(posts, postKey, cursor, count);
    return itemPage(req, page, String(page.cursor));
  }
  if (type === '1') {
    const page = pagePopular(req.ds.lists.popular(user), cursor, count);
    return page ? itemPage(req, page, String(page.cursor)) : camel(req, 10201);
  }
  if (type !== '0') return camel(req, 10201);
  // Pinned posts lead the first newest-first page and are left out of the timeline after it.
  const pinned = req.query.get('needPinnedItemIds') === 'false' ? [] : posts.filter((v) => v.pinned);
  const rest = posts.filter((v) => !pinned.includes(v)).reverse();
  const lead = cursor === 0 ? pinned.slice(0, count) : [];
  const page = pageByKeyBelow(rest, postKey, cursor, count - lead.length);
  const next = page.items.length ? page.cursor : cursor === 0 && rest.length ? postKey(rest[0]) + 1 : page.cursor;
  return itemPage(req, { ...page, items: [...lead, ...page.items] }, String(next));
};

/**
 * The creator feed (PLATFORM.md §2.3): newest first, no ordering choice, no pinned lead. `cursor`
 * is a millisecond time; items created before it are served, and `hasMorePrevious` says whether
 * older ones remain. The client computes the next cursor from the last item's createTime.
 */
export const creatorList: Handler = (req) => {
  const owner = listOwner(req);
  if ('error' in owner) return owner.error;
  const count = itemCount(req);
  const given = intParam(req.query, 'cursor', 0);
  if (count === undefined || given === undefined || given < 0) return camel(req, 10201);
  const before = given === 0 ? req.nowMs : given;
  const newestFirst = [...req.ds.lists.posts(owner.user)].reverse();
  const page = pageByKeyBelow(newestFirst, (v) => v.createTime * 1000, before, count);
  return camel(req, 0, {
    hasMorePrevious: page.hasMore,
    itemList: page.items.map((v) => itemStructOf(req.ctx, req.ds, v)),
  });
};

export const repostList: Handler = (req) => {
  const setup = listSetup(req);
  if (isReply(setup)) return setup;
  const page = pageByOffset(req.ds.lists.reposts(setup.user), setup.cursor, setup.count);
  return itemPage(req, page, String(page.cursor));
};

export const favoriteList: Handler = (req) => {
  const setup = listSetup(req);
  if (isReply(setup)) return setup;
  // Hidden likes: status 0, no itemList at all (PLATFORM.md §4).
  if (!setup.user.openFavorite) return camel(req, 0, { cursor: '0', hasMore: false });
  const likes = req.ds.lists.likes(setup.user);
  const page = pageByKeyBelow(likes, (k) => k.key, setup.cursor, setup.count);
  return itemPage(req, { ...page, items: page.items.map((k) => k.value) }, String(page.cursor));
};

export const playlistList: Handler = (req) => {
  const owner = listOwner(req);
  if ('error' in owner) return owner.error;
  const count = intParam(req.query, 'count', 20);
  const cursor = intParam(req.query, 'cursor', 0);
  if (count === undefined || cursor === undefined || count < 1 || cursor < 0) return camel(req, 10201);
  const page = pageByOffset(req.ds.lists.playlists(owner.user), cursor, Math.min(count, 30));
  return camel(req, 0, {
    cursor: String(page.cursor),
    hasMore: page.hasMore,
    playList: page.items.map((p) => {
      const items = req.ds.lists.playlistItems(p);
      return {
        cover: items.length ? coverUrl(req.ctx, 'x' + p.mixId, 'tiktokx-origin.image') : '',
        creator: authorOf(req.ctx, p.owner),
        id: p.mixId, mixId: p.mixId, mixName: p.name, name: p.name,
        createTime: p.createTime, status: 2, videoCount: items.length,
      };
    }),
  });
};

export const mixItemList: Handler = (req) => {
  const mixId = req.query.get('mixId') ?? req.query.get('collectionId');
  if (!mixId) return camel(req, 10201);
  const playlist = req.ds.lists.playlistById(mixId);
  if (!playlist) return camel(req, 10204);
  if (playlist.owner.privateAccount) return camel(req, 10222);
  const count = itemCount(req);
  const cursor = intParam(req.query, 'cursor', 0);
  if (count === undefined || cursor === undefined || cursor < 0) return camel(req, 10201);
  const page = pageByOffset(req.ds.lists.playlistItems(playlist), cursor, servedCount(count, 7, cursor));
  return itemPage(req, page, String(page.cursor));
};

export const challengeItemList: Handler = (req) => {
  const id = req.query.get('challengeID');
  if (!id) return camel(req, 10201);
  const tag = req.ds.lists.tagById(id);
  if (!tag) return camel(req, 10205);
  const count = itemCount(req);
  const cursor = intParam(req.query, 'cursor', 0);
  if (count === undefined || cursor === undefined || cursor < 0) return camel(req, 10201);
  const indexes = pageByOffset(req.ds.lists.tagVideoIndexes(tag), cursor, servedCount(count, tag.index, cursor));
  const items = indexes.items.map((i) => req.ds.videos.video(i));
  return itemPage(req, { ...indexes, items }, String(indexes.cursor));
};
