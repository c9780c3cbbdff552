// One builder per platform endpoint (PLATFORM.md §2): path, origin and endpoint params exactly
// as the web app sends them. Common params, msToken and the signature are added by request.ts.
import type { QueryParams } from './params.ts';
import type { PageRequest, UserOrder } from './types.ts';

/**
 * web-api: common params, msToken and signature; web-unsigned: common params only (the routes
 * public projects still call that way, PLATFORM.md §5.2); page: HTML; plain: only its own params;
 * raw: a given URL.
 */
export type RequestKind = 'web-api' | 'web-unsigned' | 'page' | 'plain' | 'raw';

export type EndpointRequest = {
  /** Stable name for breakers, metrics and logs (never carries tokens). */
  endpoint: string;
  kind: RequestKind;
  origin: 'web' | 'webcast';
  path: string;
  params: QueryParams;
  /** For `raw`: the absolute URL to fetch as is. */
  url?: string;
  /** The page a person would be on when the web app makes this call (a path on the web origin). */
  referer?: string;
};

const ORDER_TYPE: Record<UserOrder, string> = { newest: '0', popular: '1', oldest: '2' };

function api(path: string, params: QueryParams): EndpointRequest {
  return { endpoint: path, kind: 'web-api', origin: 'web', path, params };
}

/** The same call with only the common params: no msToken, no signature. */
function unsigned(request: EndpointRequest): EndpointRequest {
  return { ...request, endpoint: `${request.path}#unsigned`, kind: 'web-unsigned' };
}

function paging(page: PageRequest): QueryParams {
  return [
    ['count', String(page.count)],
    ['cursor', page.cursor],
  ];
}

export const endpoints = {
  // "TikTok accepts either identifier and needs both keys present even when one is blank" (EV-new).
  userDetail: (username: string) => ({ ...api('/api/user/detail/', [['secUid', ''], ['uniqueId', username]]), referer: `/@${encodeURIComponent(username)}` }),
  userPage: (username: string): EndpointRequest => ({
    endpoint: 'page:user',
    kind: 'page',
    origin: 'web',
    path: `/@${encodeURIComponent(username)}`,
    params: [],
  }),
  userPosts: (secUid: string, order: UserOrder, page: PageRequest) =>
    api('/api/post/item_list/', [
      ['secUid', secUid],
      ...paging(page),
      ['coverFormat', '2'],
      ['needPinnedItemIds', 'true'],
      ['post_item_list_request_type', ORDER_TYPE[order]],
    ]),
  /** Newest first only; `cursorMs` is a time in ms, the feed serves what was posted before it. */
  creatorPosts: (secUid: string, cursorMs: number) =>
    unsigned(
      api('/api/creator/item_list/', [
        ['secUid', secUid],
        ['type', '1'],
        ['count', '15'],
        ['cursor', String(cursorMs)],
      ]),
    ),
  unsigned,
  userReposts: (secUid: string, page: PageRequest) =>
    api('/api/repost/item_list/', [
      ['secUid', secUid],
      ...paging(page),
      ['coverFormat', '2'],
      ['needPinnedItemIds', 'true'],
      ['post_item_list_request_type', '0'],
    ]),
  userLikes: (secUid: string, page: PageRequest) =>
    api('/api/favorite/item_list/', [['secUid', secUid], ...paging(page), ['coverFormat', '2']]),
  userPlaylists: (secUid: string, page: PageRequest) => api('/api/user/playlist/', [['secUid', secUid], ...paging(page)]),
  // Next page: both cursors set to the previous minCursor (PLATFORM.md §2.7, §3).
  userFollowers: (secUid: string, page: PageRequest) =>
    api('/api/user/list/', [
      ['secUid', secUid],
      ['count', String(page.count)],
      ['maxCursor', page.cursor],
      ['minCursor', page.cursor],
      ['scene', '67'],
    ]),
  itemDetail: (videoId: string) => api('/api/item/detail/', [['itemId', videoId]]),
  videoPage: (videoId: string): EndpointRequest => ({
    endpoint: 'page:video',
    kind: 'page',
    origin: 'web',
    path: `/@_/video/${encodeURIComponent(videoId)}`,
    params: [],
  }),
  comments: (videoId: string, page: PageRequest, region: string) =>
    api('/api/comment/list/', [['aweme_id', videoId], ...paging(page), ['current_region', region]]),
  replies: (videoId: string, commentId: string, page: PageRequest, region: string) =>
    api('/api/comment/list/reply/', [
      ['item_id', videoId],
      ['comment_id', commentId],
      ...paging(page),
      ['current_region', region],
    ]),
  challengeDetail: (tagName: string) => api('/api/challenge/detail/', [['challengeName', tagName]]),
  challengeItems: (challengeId: string, page: PageRequest) =>
    api('/api/challenge/item_list/', [['challengeID', challengeId], ...paging(page)]),
  // The web app sends the common params and signature here too (F2 builds it on its base model).
  liveUserRoom: (username: string) =>
    api('/api-live/user/room/', [
      ['sourceType', '54'],
      ['uniqueId', username],
    ]),
  roomInfo: (roomId: string): EndpointRequest => ({
    endpoint: '/webcast/room/info/',
    kind: 'plain',
    origin: 'webcast',
    path: '/webcast/room/info/',
    params: [
      ['aid', '1988'],
      ['room_id', roomId],
    ],
  }),
  subtitle: (url: string): EndpointRequest => ({ endpoint: 'subtitle', kind: 'raw', origin: 'web', path: '', params: [], url }),
};
