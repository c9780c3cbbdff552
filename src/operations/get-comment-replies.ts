// Operation 10: replies to one comment of a video.
import { z } from 'zod';
import { toNote, videoUrl } from '../activitystreams/index.ts';
import type { Operation } from './types.ts';
import { cachedUpstream, runCollection } from './shared.ts';
import { getVideoCached } from './get-video.ts';
import { COMMENT_PLATFORM_PAGE } from './get-video-comments.ts';
import { commentId, count, cursor, projectionPreset, videoId } from './params.ts';

const input = z.object({ videoId, commentId, count: count(50, 20), cursor, projection_preset: projectionPreset });

export const getCommentReplies: Operation<typeof input> = {
  name: 'replies',
  tool: 'platform_get_comment_replies',
  title: 'List the replies to a comment',
  description:
    'Replies to one top-level comment of a video (the comment id comes from platform_get_video_comments), oldest first as the platform orders them. Page with nextCursor.',
  path: '/v1/platform/videos/:videoId/comments/:commentId/replies',
  pathParams: ['videoId', 'commentId'],
  input,
  itemType: 'Note',
  resultType: 'OrderedCollectionPage',
  cacheKey: (i) => `replies:${i.videoId}:${i.commentId}:${i.count}:${i.cursor}`,
  async run(i, deps) {
    const video = await getVideoCached(deps, i.videoId);
    const url = videoUrl(deps.config.webOrigin, video.data.author.uniqueId, video.data.id);
    return runCollection({
      deps,
      kind: `replies:${i.commentId}`,
      count: i.count,
      cursor: i.cursor,
      path: `/v1/platform/videos/${i.videoId}/comments/${i.commentId}/replies`,
      loadPage: (pc) =>
        cachedUpstream(deps, 'replies', `replies:${i.videoId}:${i.commentId}:${pc}`, () =>
          deps.client.getReplies(i.videoId, i.commentId, { cursor: pc, count: COMMENT_PLATFORM_PAGE }),
        ),
      idOf: (comment) => comment.cid,
      map: (comment, ctx) => toNote(comment, ctx, url),
    });
  },
};
