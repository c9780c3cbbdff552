// Operation 9: top-level comments of a video.
import { z } from 'zod';
import { toNote, videoUrl } from '../activitystreams/index.ts';
import type { Operation } from './types.ts';
import { cachedUpstream, runCollection } from './shared.ts';
import { getVideoCached } from './get-video.ts';
import { count, cursor, projectionPreset, videoId } from './params.ts';

const input = z.object({ videoId, count: count(50, 20), cursor, projection_preset: projectionPreset });

/** The web app reads comments 20 at a time (PLATFORM.md §2.9). */
export const COMMENT_PLATFORM_PAGE = 20;

export const getVideoComments: Operation<typeof input> = {
  name: 'comments',
  tool: 'platform_get_video_comments',
  title: 'List the comments of a video',
  description:
    'Top-level comments of a video in the platform’s order (pinned first), with text, author, like and reply counts. Use platform_get_comment_replies for the replies of one comment. Page with nextCursor.',
  path: '/v1/platform/videos/:videoId/comments',
  pathParams: ['videoId'],
  input,
  itemType: 'Note',
  resultType: 'OrderedCollectionPage',
  cacheKey: (i) => `comments:${i.videoId}:${i.count}:${i.cursor}`,
  async run(i, deps) {
    const video = await getVideoCached(deps, i.videoId);
    const url = videoUrl(deps.config.webOrigin, video.data.author.uniqueId, video.data.id);
    return runCollection({
      deps,
      kind: `comments:${i.videoId}`,
      count: i.count,
      cursor: i.cursor,
      path: `/v1/platform/videos/${i.videoId}/comments`,
      loadPage: (pc) =>
        cachedUpstream(deps, 'comments', `comments:${i.videoId}:${pc}`, () =>
          deps.client.getComments(i.videoId, { cursor: pc, count: COMMENT_PLATFORM_PAGE }),
        ),
      idOf: (comment) => comment.cid,
      map: (comment, ctx) => toNote(comment, ctx, url),
    });
  },
};
