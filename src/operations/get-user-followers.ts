// Operation 6: a user's followers.
import { z } from 'zod';
import { toPerson } from '../activitystreams/index.ts';
import type { Operation } from './types.ts';
import { cachedUpstream, resolveSecUid, runCollection } from './shared.ts';
import { count, cursor, projectionPreset, username } from './params.ts';

const input = z.object({ username, count: count(30, 30), cursor, projection_preset: projectionPreset });

const PLATFORM_PAGE = 30;

export const getUserFollowers: Operation<typeof input> = {
  name: 'userFollowers',
  tool: 'platform_get_user_followers',
  title: "List a user's followers",
  description:
    "People who follow a user, most recent follower first, with their profile counts. Hidden follower lists answer private_content. Page with nextCursor.",
  path: '/v1/platform/users/:username/followers',
  pathParams: ['username'],
  input,
  itemType: 'Person',
  resultType: 'OrderedCollectionPage',
  output: 'PersonPage',
  cacheKey: (i) => `userFollowers:${i.username}:${i.count}:${i.cursor}`,
  async run(i, deps) {
    const secUid = await resolveSecUid(deps, i.username);
    return runCollection({
      deps,
      kind: 'followers',
      count: i.count,
      cursor: i.cursor,
      path: `/v1/platform/users/${i.username}/followers`,
      loadPage: (pc) =>
        cachedUpstream(deps, 'userFollowers', `followers:${secUid}:${pc}`, (d) =>
          d.client.getUserFollowers(secUid, { cursor: pc, count: PLATFORM_PAGE }),
        ),
      idOf: (entry) => entry.user.id,
      map: (entry, ctx) => toPerson(entry.user, entry.stats, entry.statsV2, ctx),
    });
  },
};
