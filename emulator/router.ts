// Maps a platform path to its handler and to the guard it sits behind (signed API, gated media,
// WAF-able page, or open), plus a bounded label for request statistics.
import { challengeDetail, commentList, itemDetail, replyList, userDetail, userList } from './handlers/api-entities.ts';
import {
  challengeItemList, creatorList, favoriteList, mixItemList, playlistList, postList, repostList,
} from './handlers/api-lists.ts';
import { imageFile, keyedFile, playRedirector, streamFile } from './handlers/cdn.ts';
import { checkAlive, liveUserRoom, roomInfo } from './handlers/live.ts';
import { homePage, profilePage, tagPage, videoPage } from './handlers/pages.ts';
import type { Handler } from './handlers/types.ts';

/** `unsigned`: a signed API path that also answers requests carrying only the common params. */
export type Guard = 'signed' | 'unsigned' | 'media' | 'page' | 'open';
export type Route = { handler: Handler; guard: Guard; label: string };

const API: Record<string, Handler | undefined> = {
  '/api/user/detail/': userDetail,
  '/api/post/item_list/': postList,
  '/api/repost/item_list/': repostList,
  '/api/favorite/item_list/': favoriteList,
  '/api/user/playlist/': playlistList,
  '/api/mix/item_list/': mixItemList,
  '/api/collection/item_list/': mixItemList,
  '/api/user/list/': userList,
  '/api/item/detail/': itemDetail,
  '/api/comment/list/': commentList,
  '/api/comment/list/reply/': replyList,
  '/api/challenge/detail/': challengeDetail,
  '/api/challenge/item_list/': challengeItemList,
  '/api-live/user/room/': liveUserRoom,
  '/api/creator/item_list/': creatorList,
};

/** Still answered unsigned, as YTDLP and GDL use them (PLATFORM.md §5.2). */
const UNSIGNED_OK = new Set(['/api/creator/item_list/', '/api/repost/item_list/', '/api/favorite/item_list/']);

const WEBCAST: Record<string, Handler | undefined> = {
  '/webcast/room/info/': roomInfo,
  '/webcast/room/check_alive/': checkAlive,
};

/** The path a request is about, with a trailing slash as the platform's API paths carry. */
function apiPath(path: string): string {
  return path.endsWith('/') ? path : `${path}/`;
}

export function routeOf(path: string): Route | undefined {
  if (path.startsWith('/api/') || path.startsWith('/api-live/')) {
    const handler = API[apiPath(path)];
    if (!handler) return undefined;
    return { handler, guard: UNSIGNED_OK.has(apiPath(path)) ? 'unsigned' : 'signed', label: apiPath(path) };
  }
  if (path.startsWith('/webcast/')) {
    const handler = WEBCAST[apiPath(path)];
    return handler ? { handler, guard: 'open', label: apiPath(path) } : undefined;
  }
  if (path.startsWith('/video/tos/')) return { handler: keyedFile, guard: 'media', label: '/video/tos/' };
  if (path.startsWith('/subtitle/')) return { handler: keyedFile, guard: 'media', label: '/subtitle/' };
  if (path === '/aweme/v1/play/' || path === '/aweme/v1/play') {
    return { handler: playRedirector, guard: 'media', label: '/aweme/v1/play/' };
  }
  if (path.startsWith('/obj/')) return { handler: imageFile, guard: 'open', label: '/obj/' };
  if (path.startsWith('/stage/')) return { handler: streamFile, guard: 'open', label: '/stage/' };
  if (path === '/') return { handler: homePage, guard: 'page', label: '/' };
  if (/^\/@[^/]+\/?$/.test(path)) return { handler: profilePage, guard: 'page', label: '/@{uniqueId}' };
  if (/^\/@[^/]+\/(video|photo)\/\d+\/?$/.test(path)) {
    return { handler: videoPage, guard: 'page', label: '/@{uniqueId}/video/{id}' };
  }
  if (/^\/tag\/[^/]+\/?$/.test(path)) return { handler: tagPage, guard: 'page', label: '/tag/{name}' };
  return undefined;
}
