// Operation 9: top-level comments of a video.
import { z } from 'zod';
import { toNote } from '../activitystreams/index.ts';
import type { Operation, OperationDeps } from './types.ts';
import type { Fetched, PageRequest, PlatformClient, RawPage } from '../upstream/types.ts';
import type { RawComment } from '../upstream/raw.ts';
import { cachedUpstream, runCollection } from './shared.ts';
import { canonicalVideoUrl } from './get-video.ts';
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
  output: 'NotePage',
  cacheKey: (i) => `comments:${i.videoId}:${i.count}:${i.cursor}`,
  run: (i, deps) =>
    runNoteCollection(deps, i, {
      kind: `comments:${i.videoId}`,
      path: `/v1/platform/videos/${i.videoId}/comments`,
      policy: 'comments',
      pageKey: `comments:${i.videoId}`,
      load: (page, client) => client.getComments(i.videoId, page),
    }),
};

/** Comments and replies: Notes of one video, read 20 at a time from the platform. */
export async function runNoteCollection(
  deps: OperationDeps,
  i: { videoId: string; count: number; cursor: string },
  spec: { kind: string; path: string; policy: string; pageKey: string; load: (page: PageRequest, client: PlatformClient) => Promise<Fetched<RawPage<RawComment>>> },
): Promise<unknown> {
  const url = await canonicalVideoUrl(deps, i.videoId);
  return runCollection({
    deps,
    kind: spec.kind,
    count: i.count,
    cursor: i.cursor,
    path: spec.path,
    loadPage: (pc) =>
      cachedUpstream(deps, spec.policy, `${spec.pageKey}:${pc}`, (d) => spec.load({ cursor: pc, count: COMMENT_PLATFORM_PAGE }, d.client)),
    idOf: (comment) => comment.cid,
    map: (comment, ctx) => toNote(comment, ctx, url),
  });
}
