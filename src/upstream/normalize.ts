// Body parsers of every endpoint: classify the JSON (status codes, captcha shapes), validate it
// with the raw.ts schemas (a mismatch is a changed shape), and normalise lists to RawPage.
import type { z } from 'zod';
import { classifyJsonBody, classifyStatusCode, parseJsonBody, UpstreamFailure } from './classify.ts';
import {
  RawChallengeDetailBody,
  RawCommentListBody,
  RawCreatorListBody,
  RawItem,
  RawItemDetailBody,
  RawItemListBody,
  RawLiveUserRoomBody,
  RawPlaylistBody,
  RawRoomInfo,
  RawRoomInfoBody,
  RawUserDetailBody,
  RawUserListBody,
  type RawChallenge,
  type RawComment,
  type RawPlaylist,
  type RawUserListEntry,
} from './raw.ts';
import { extractRehydration, extractScope } from './rehydration.ts';
import { readCount, readLegacyStreams, readSdkStreams } from './live-streams.ts';
import type { LiveRoomInfo, RawLiveRoom, RawPage, RawUserProfile } from './types.ts';

const changedShape = (reason = 'changed_shape') => new UpstreamFailure({ outcome: 'upstream_error', reason });

function check<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw changedShape();
  return parsed.data;
}

/** JSON text → classified, schema-checked body. */
export function parseApiBody<S extends z.ZodType>(schema: S, text: string): z.infer<S> {
  const parsed = parseJsonBody(text);
  if ('failure' in parsed) throw new UpstreamFailure(parsed.failure);
  const c = classifyJsonBody(parsed.json);
  if (c.outcome !== 'ok') throw new UpstreamFailure(c);
  return check(schema, parsed.json);
}

const str = (v: string | number | undefined): string | undefined => (v === undefined ? undefined : String(v));

export function toUserProfile(body: RawUserDetailBody): RawUserProfile {
  return { user: body.userInfo.user, stats: body.userInfo.stats, statsV2: body.userInfo.statsV2 };
}

export function toItemPage(body: RawItemListBody): RawPage<RawItem> {
  return { items: body.itemList ?? [], hasMore: body.hasMore === true, nextCursor: str(body.cursor), total: undefined };
}

/** The creator feed's time cursors (PLATFORM.md §2.3, §3): next = last item's createTime in ms. */
export const CREATOR_WEEK_MS = 604_800_000;
/** Older than the platform itself: a cursor below this ends the feed. */
export const CREATOR_EPOCH_MS = 1_472_706_000_000;

/**
 * `cursorMs` is the time the request asked below. When the page does not move the cursor (no
 * items, or all from that very millisecond), step back a week as the working clients do.
 */
export function toCreatorPage(body: RawCreatorListBody, cursorMs: number): RawPage<RawItem> {
  const items = body.itemList ?? [];
  const last = items.at(-1)?.createTime;
  let next = last === undefined ? cursorMs : Number(last) * 1000;
  if (!(next < cursorMs)) next = cursorMs - CREATOR_WEEK_MS;
  const hasMore = body.hasMorePrevious === true && next >= CREATOR_EPOCH_MS;
  return { items, hasMore, nextCursor: String(next), total: undefined };
}

export function toPlaylistPage(body: RawPlaylistBody): RawPage<RawPlaylist> {
  return { items: body.playList ?? [], hasMore: body.hasMore === true, nextCursor: str(body.cursor), total: undefined };
}

/** Followers continue from the returned minCursor (PLATFORM.md §2.7). */
export function toUserListPage(body: RawUserListBody): RawPage<RawUserListEntry> {
  return { items: body.userList ?? [], hasMore: body.hasMore === true, nextCursor: str(body.minCursor), total: body.total };
}

/** Comments: snake_case, `has_more` 0/1, `cursor` an offset (PLATFORM.md §2.9). */
export function toCommentPage(body: RawCommentListBody): RawPage<RawComment> {
  return { items: body.comments ?? [], hasMore: body.has_more === 1, nextCursor: str(body.cursor), total: body.total };
}

/** Offline users answer with `data.user` null or a room whose status is not 2 (PLATFORM.md §2.11). */
export function toLiveRoom(body: RawLiveUserRoomBody): RawLiveRoom {
  const user = body.data?.user ?? undefined;
  const room = body.data?.liveRoom ?? undefined;
  return {
    user,
    roomId: user?.roomId || undefined,
    status: room?.status,
    title: room?.title || undefined,
    startTime: room?.startTime,
    coverUrl: room?.coverUrl || undefined,
    viewerCount: readCount(room?.liveRoomStats?.userCount),
    streams: readSdkStreams(room?.streamData?.pull_data),
  };
}

/** Streams come from the SDK pull data; the legacy maps only when it yields none (as LR reads them). */
export function toRoomInfo(room: RawRoomInfo): LiveRoomInfo {
  const sdk = readSdkStreams((room.stream_url?.live_core_sdk_data as { pull_data?: unknown } | undefined)?.pull_data);
  return {
    roomId: room.id_str || undefined,
    status: room.status,
    title: room.title || undefined,
    createTime: room.create_time,
    coverUrl: room.cover?.url_list[0] || undefined,
    ownerUniqueId: room.owner?.display_id || undefined,
    viewerCount: readCount(room.user_count),
    streams: sdk.length > 0 ? sdk : readLegacyStreams(room.stream_url),
  };
}

export const parsers = {
  userDetail: (text: string) => toUserProfile(parseApiBody(RawUserDetailBody, text)),
  itemList: (text: string) => toItemPage(parseApiBody(RawItemListBody, text)),
  creatorList: (cursorMs: number) => (text: string) => toCreatorPage(parseApiBody(RawCreatorListBody, text), cursorMs),
  /** A hidden likes list answers without `itemList` at all. */
  likes: (text: string) => {
    const body = parseApiBody(RawItemListBody, text);
    if (body.itemList === undefined && body.hasMore !== true) {
      throw new UpstreamFailure({ outcome: 'private_content', reason: 'hidden_likes' });
    }
    return toItemPage(body);
  },
  playlists: (text: string) => toPlaylistPage(parseApiBody(RawPlaylistBody, text)),
  /** "An empty result omits userList entirely" = the list is hidden (PLATFORM.md §2.7). */
  followers: (text: string) => {
    const body = parseApiBody(RawUserListBody, text);
    if (body.userList === undefined) throw new UpstreamFailure({ outcome: 'private_content', reason: 'hidden_followers' });
    return toUserListPage(body);
  },
  itemDetail: (text: string) => {
    const body = parseApiBody(RawItemDetailBody, text);
    // Risk control sometimes answers ok with an empty itemInfo (PLATFORM.md §4).
    if (!body.itemInfo) throw new UpstreamFailure({ outcome: 'blocked', reason: 'empty_item_info' });
    return body.itemInfo.itemStruct;
  },
  comments: (text: string) => toCommentPage(parseApiBody(RawCommentListBody, text)),
  challenge: (text: string): { challenge: RawChallenge; videoCount: number | undefined } => {
    const body = parseApiBody(RawChallengeDetailBody, text);
    if (!body.challengeInfo) throw new UpstreamFailure({ outcome: 'not_found', reason: 'tag_not_found' });
    const count = body.challengeInfo.statsV2?.videoCount ?? body.challengeInfo.stats?.videoCount;
    const videoCount = count === undefined || Number.isNaN(Number(count)) ? undefined : Number(count);
    return { challenge: body.challengeInfo.challenge, videoCount };
  },
  liveRoom: (text: string): RawLiveRoom => toLiveRoom(parseApiBody(RawLiveUserRoomBody, text)),
  roomInfo: (text: string): LiveRoomInfo => {
    const parsed = parseJsonBody(text);
    if ('failure' in parsed) throw new UpstreamFailure(parsed.failure);
    const body = check(RawRoomInfoBody, parsed.json);
    const room = RawRoomInfo.safeParse(body.data);
    if (body.status_code !== 0) {
      const message = (body.data as { message?: unknown } | undefined)?.message;
      throw new UpstreamFailure(classifyWebcast(body.status_code, typeof message === 'string' ? message : undefined));
    }
    if (!room.success) throw changedShape();
    return toRoomInfo(room.data);
  },
  userPage: (html: string): RawUserProfile => {
    const scope = pageScope(html, 'webapp.user-detail');
    return toUserProfile(check(RawUserDetailBody, scope));
  },
  videoPage: (html: string): RawItem => {
    const scope = pageScope(html, 'webapp.video-detail');
    const itemStruct = (scope.itemInfo as { itemStruct?: unknown } | undefined)?.itemStruct;
    if (itemStruct === undefined) throw new UpstreamFailure({ outcome: 'blocked', reason: 'empty_item_info' });
    return check(RawItem, itemStruct);
  },
  subtitle: (text: string): string => text,
};

// Webcast has its own codes; a room that does not exist says so in `data.message` (LR sources).
function classifyWebcast(code: number, message: string | undefined) {
  const c = classifyStatusCode(code);
  if (c.outcome === 'upstream_error' && message && /not exist|not found|finished/i.test(message)) {
    return { outcome: 'not_found' as const, reason: `webcast_${code}` };
  }
  return c;
}

/** The scope with its own statusCode classified (a missing statusCode means 0, as TTA reads it). */
function pageScope(html: string, name: string): Record<string, unknown> {
  if (!extractRehydration(html)) throw changedShape('no_rehydration');
  const scope = extractScope(html, name);
  if (!scope) throw changedShape('no_scope');
  const code = scope.statusCode;
  const c = classifyStatusCode(typeof code === 'number' ? code : undefined);
  if (c.outcome !== 'ok') throw new UpstreamFailure(c);
  return scope;
}
