// Operation 4: the videos a user liked (only when the user made likes public).
import { z } from 'zod';
import { toVideo } from '../activitystreams/index.ts';
import type { Operation } from './types.ts';
import { cachedUpstream, getUserCached, resolveSecUid, runCollection, toCount } from './shared.ts';
import { count, cursor, projectionPreset, username } from './params.ts';

const input = z.object({ username, count: count(35, 35), cursor, projection_preset: projectionPreset });

const PLATFORM_PAGE = 30;

export const getUserLikes: Operation<typeof input> = {
  name: 'userLikes',
  tool: 'platform_get_user_likes',
  title: "List a user's liked videos",
  description:
    'Videos a user liked, most recent like first, one page at a time. Works only for users whose likes are public; otherwise the answer is a private_content error. Page with nextCursor.',
  path: '/v1/platform/users/:username/likes',
  pathParams: ['username'],
  input,
  itemType: 'Video',
  resultType: 'OrderedCollectionPage',
  output: 'VideoPage',
  cacheKey: (i) => `userLikes:${i.username}:${i.count}:${i.cursor}`,
  async run(i, deps) {
    const secUid = await resolveSecUid(deps, i.username);
    return runCollection({
      deps,
      kind: 'likes',
      count: i.count,
      cursor: i.cursor,
      path: `/v1/platform/users/${i.username}/likes`,
      loadPage: (pc) =>
        cachedUpstream(deps, 'userLikes', `likes:${secUid}:${pc}`, (d) =>
          d.client.getUserLikes(secUid, { cursor: pc, count: PLATFORM_PAGE }),
        ),
      idOf: (item) => item.id,
      map: (item, ctx) => toVideo(item, ctx),
      knownTotal: async () => {
        const profile = await getUserCached(deps, i.username);
        return toCount(profile.data.statsV2?.diggCount ?? profile.data.stats?.diggCount);
      },
    });
  },
};
