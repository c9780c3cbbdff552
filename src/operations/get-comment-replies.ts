// Operation 10: replies to one comment of a video.
import { z } from 'zod';
import type { Operation } from './types.ts';
import { runNoteCollection } from './get-video-comments.ts';
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
  output: 'NotePage',
  cacheKey: (i) => `replies:${i.videoId}:${i.commentId}:${i.count}:${i.cursor}`,
  run: (i, deps) =>
    runNoteCollection(deps, i, {
      kind: `replies:${i.commentId}`,
      path: `/v1/platform/videos/${i.videoId}/comments/${i.commentId}/replies`,
      policy: 'replies',
      pageKey: `replies:${i.videoId}:${i.commentId}`,
      load: (page, client) => client.getReplies(i.videoId, i.commentId, page),
    }),
};
