// Operation 3: the videos a user reposted.
import { z } from 'zod';
import { toVideo } from '../activitystreams/index.ts';
import type { Operation, OperationDeps } from './types.ts';
import type { Fetched, RawPage } from '../upstream/types.ts';
import type { RawItem } from '../upstream/raw.ts';
import { cachedUpstream, resolveSecUid, runCollection, toCount } from './shared.ts';
import { count, cursor, order, projectionPreset, username } from './params.ts';

const input = z.object({ username, count: count(30, 30), cursor, order, projection_preset: projectionPreset });

const PLATFORM_PAGE = 30;

export const getUserReposts: Operation<typeof input> = {
  name: 'userReposts',
  tool: 'platform_get_user_reposts',
  title: "List a user's reposts",
  description:
    'Videos a user reposted to their profile, one page at a time. Newest repost first by default; order=oldest gives the first reposts first and order=popular the most played first. Page with nextCursor.',
  path: '/v1/platform/users/:username/reposts',
  pathParams: ['username'],
  input,
  itemType: 'Video',
  resultType: 'OrderedCollectionPage',
  output: 'VideoPage',
  cacheKey: (i) => `userReposts:${i.username}:${i.order}:${i.count}:${i.cursor}`,
  async run(i, deps) {
    const secUid = await resolveSecUid(deps, i.username);
    return runCollection({
      deps,
      kind: `reposts:${i.order}`,
      count: i.count,
      cursor: i.cursor,
      path: `/v1/platform/users/${i.username}/reposts`,
      query: i.order === 'newest' ? {} : { order: i.order },
      loadPage: async (pc) => {
        if (i.order === 'newest') {
          return cachedUpstream(deps, 'userReposts', `reposts:${secUid}:${pc}`, (d) =>
            d.client.getUserReposts(secUid, { cursor: pc, count: PLATFORM_PAGE }),
          );
        }
        return readAllReordered(deps, secUid, i.order);
      },
      idOf: (item) => item.id,
      map: (item, ctx) => toVideo(item, ctx),
    });
  },
};

/** Reposts past this many are not reordered: the list is read whole to sort it. */
const REORDER_MAX_ITEMS = 2_000;

/**
 * The platform lists reposts newest repost first and takes no order parameter, so `oldest`
 * (first reposted first) and `popular` (most played first) read the whole list, through the same
 * cached platform pages, and page over the reordered result.
 */
async function readAllReordered(
  deps: OperationDeps,
  secUid: string,
  order: 'popular' | 'oldest',
): Promise<Fetched<RawPage<RawItem>>> {
  const items: RawItem[] = [];
  let pc = '0';
  let chainToken: string | undefined;
  for (let pages = 0; items.length < REORDER_MAX_ITEMS && pages < REORDER_MAX_ITEMS / PLATFORM_PAGE; pages++) {
    const fetched = await cachedUpstream(deps, 'userReposts', `reposts:${secUid}:${pc}`, (d) =>
      d.client.getUserReposts(secUid, { cursor: pc, count: PLATFORM_PAGE }),
    );
    chainToken = fetched.chainToken ?? chainToken;
    items.push(...fetched.data.items);
    const next = fetched.data.nextCursor;
    if (!fetched.data.hasMore || next === undefined || next === pc) break;
    pc = next;
  }
  const plays = (item: RawItem) => toCount(item.statsV2?.playCount ?? item.stats?.playCount) ?? 0;
  const sorted = order === 'oldest' ? items.reverse() : items.sort((a, b) => plays(b) - plays(a));
  return { data: { items: sorted, hasMore: false, nextCursor: undefined, total: sorted.length }, chainToken };
}
