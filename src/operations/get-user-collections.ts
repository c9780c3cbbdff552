// Operation 5: a user's collections (playlists).
import { z } from 'zod';
import { toPlaylist } from '../activitystreams/index.ts';
import type { Operation } from './types.ts';
import { cachedUpstream, getUserCached, resolveSecUid, runCollection } from './shared.ts';
import { count, cursor, projectionPreset, username } from './params.ts';

const input = z.object({ username, count: count(30, 30), cursor, projection_preset: projectionPreset });

/** The web app asks for 20 playlists at a time (PLATFORM.md §2.6). */
const PLATFORM_PAGE = 20;

export const getUserCollections: Operation<typeof input> = {
  name: 'userCollections',
  tool: 'platform_get_user_collections',
  title: "List a user's collections",
  description:
    "A user's public collections (playlists of their videos): name, number of videos, cover. Page with nextCursor.",
  path: '/v1/platform/users/:username/collections',
  pathParams: ['username'],
  input,
  itemType: 'OrderedCollection',
  resultType: 'OrderedCollectionPage',
  output: 'PlaylistPage',
  cacheKey: (i) => `userCollections:${i.username}:${i.count}:${i.cursor}`,
  async run(i, deps) {
    const secUid = await resolveSecUid(deps, i.username);
    const owner = (await getUserCached(deps, i.username)).data.user;
    return runCollection({
      deps,
      kind: 'collections',
      count: i.count,
      cursor: i.cursor,
      path: `/v1/platform/users/${i.username}/collections`,
      loadPage: (pc) =>
        cachedUpstream(deps, 'userCollections', `playlists:${secUid}:${pc}`, (d) =>
          d.client.getUserPlaylists(secUid, { cursor: pc, count: PLATFORM_PAGE }),
        ),
      idOf: (item) => item.mixId ?? item.id ?? '',
      map: (item, ctx) => toPlaylist(item, ctx, item.creator ?? owner),
    });
  },
};
