// Operation 2: the videos of a user's profile, newest, most popular or oldest first.
import { z } from 'zod';
import { AppError, isAppError } from '../errors.ts';
import { toVideo } from '../activitystreams/index.ts';
import type { Operation } from './types.ts';
import { cachedUpstream, getUserCached, resolveSecUid, runCollection, toCount } from './shared.ts';
import { count, cursor, order, projectionPreset, username } from './params.ts';

const input = z.object({ username, count: count(35, 35), cursor, order, projection_preset: projectionPreset });

/** The platform caps post pages at 35 (PLATFORM.md §2.3); always asking for 35 keeps its pages cacheable. */
const PLATFORM_PAGE = 35;

/** Only newest-first has a second route; say so rather than serve another order. */
function onlyOneRoute(error: unknown, order: string): unknown {
  if (!(isAppError(error) && error.code === 'upstream_blocked')) return error;
  return new AppError(
    'upstream_blocked',
    `The platform refused the list that serves order=${order}, and no other route serves that order; try again later, or use order=newest, which has an unsigned route.`,
    { ...(error.details ? { details: error.details } : {}), ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}), cause: error },
  );
}

export const getUserVideos: Operation<typeof input> = {
  name: 'userVideos',
  tool: 'platform_get_user_videos',
  title: "List a user's videos",
  description:
    "Videos posted on a user's profile, one page at a time (newest first by default; order=popular or oldest). Each video has its caption, counts, hashtags, sound, cover and media files. Page with nextCursor.",
  path: '/v1/platform/users/:username/videos',
  pathParams: ['username'],
  input,
  itemType: 'Video',
  resultType: 'OrderedCollectionPage',
  output: 'VideoPage',
  cacheKey: (i) => `userVideos:${i.username}:${i.order}:${i.count}:${i.cursor}`,
  async run(i, deps) {
    const secUid = await resolveSecUid(deps, i.username);
    return runCollection({
      deps,
      kind: `videos:${i.order}`,
      count: i.count,
      cursor: i.cursor,
      path: `/v1/platform/users/${i.username}/videos`,
      query: i.order === 'newest' ? {} : { order: i.order },
      loadPage: (pc) =>
        cachedUpstream(deps, 'userVideos', `posts:${secUid}:${i.order}:${pc}`, (d) =>
          d.client.getUserPosts(secUid, i.order, { cursor: pc, count: PLATFORM_PAGE }).catch((error: unknown) => {
            throw i.order === 'newest' ? error : onlyOneRoute(error, i.order);
          }),
        ),
      idOf: (item) => item.id,
      map: (item, ctx) => toVideo(item, ctx),
      knownTotal: async () => {
        const profile = await getUserCached(deps, i.username);
        return toCount(profile.data.statsV2?.videoCount ?? profile.data.stats?.videoCount);
      },
    });
  },
};
