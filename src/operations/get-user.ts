// Operation 12: a user's profile as a Person.
import { z } from 'zod';
import { toPerson, withContext } from '../activitystreams/index.ts';
import type { Operation } from './types.ts';
import { getUserCached, mapContext } from './shared.ts';
import { projectionPreset, username } from './params.ts';

const input = z.object({ username, projection_preset: projectionPreset });

export const getUser: Operation<typeof input> = {
  name: 'user',
  tool: 'platform_get_user',
  title: 'Get a user profile',
  description:
    'Profile of one platform user: display name, biography, links, verification, privacy, follower/following/like/video counts and avatars. Use it to look a person up by username before reading their videos or followers.',
  path: '/v1/platform/users/:username',
  pathParams: ['username'],
  input,
  resultType: 'Person',
  output: 'PersonDocument',
  cacheKey: (i) => `user:${i.username}`,
  async run(i, deps) {
    const profile = await getUserCached(deps, i.username);
    const { user, stats, statsV2 } = profile.data;
    return withContext(toPerson(user, stats, statsV2, mapContext(deps, profile.chainToken)), deps.config.socialNsUrl);
  },
};
