// Operation 1: videos of a hashtag; the tag name is resolved to the platform's challenge id first.
import { z } from 'zod';
import { toVideo } from '../activitystreams/index.ts';
import type { Operation } from './types.ts';
import { cachedUpstream, runCollection, toCount } from './shared.ts';
import { count, cursor, projectionPreset, tagName } from './params.ts';

const input = z.object({ tagName, count: count(30, 30), cursor, projection_preset: projectionPreset });

const PLATFORM_PAGE = 30;

export const getTagVideos: Operation<typeof input> = {
  name: 'tagVideos',
  tool: 'platform_get_tag_videos',
  title: 'List the videos of a hashtag',
  description:
    'Videos posted with a hashtag (give the name without #), in the platform’s order, with author, counts, language, location and sponsorship. Page with nextCursor.',
  path: '/v1/platform/tags/:tagName',
  aliases: ['/v1/platform/tags/:tagName/videos'],
  pathParams: ['tagName'],
  input,
  itemType: 'Video',
  resultType: 'OrderedCollectionPage',
  output: 'VideoTagDialectPage',
  cacheKey: (i) => `tagVideos:${i.tagName}:${i.count}:${i.cursor}`,
  async run(i, deps) {
    const tag = await cachedUpstream(deps, 'resolveTag', `tag:${i.tagName}`, async (d) => {
      const fetched = await d.client.getTag(i.tagName);
      return { id: fetched.data.challenge.id, videoCount: fetched.data.videoCount };
    });
    return runCollection({
      deps,
      kind: `tag:${tag.id}`,
      count: i.count,
      cursor: i.cursor,
      path: `/v1/platform/tags/${encodeURIComponent(i.tagName)}/videos`,
      loadPage: (pc) =>
        cachedUpstream(deps, 'tagVideos', `tag-videos:${tag.id}:${pc}`, (d) =>
          d.client.getTagVideos(tag.id, { cursor: pc, count: PLATFORM_PAGE }),
        ),
      idOf: (item) => item.id,
      map: (item, ctx) => toVideo(item, ctx, 'tag'),
      knownTotal: async () => toCount(tag.videoCount),
    });
  },
};
