// Operation 8: one video with its counts, media files, sound and author.
import { z } from 'zod';
import { toVideo, videoUrl, withContext } from '../activitystreams/index.ts';
import type { Fetched } from '../upstream/types.ts';
import type { RawItem } from '../upstream/raw.ts';
import type { Operation, OperationDeps } from './types.ts';
import { cachedUpstream, mapContext } from './shared.ts';
import { projectionPreset, videoId } from './params.ts';

const input = z.object({ videoId, projection_preset: projectionPreset });

/** The raw item, shared by the video, comments, replies and transcript operations. */
export function getVideoCached(deps: OperationDeps, id: string): Promise<Fetched<RawItem>> {
  return cachedUpstream(deps, 'video', `video:${id}`, (d) => d.client.getVideo(id));
}

/** Canonical page URL of a video; comments and transcripts point at it. */
export async function canonicalVideoUrl(deps: OperationDeps, id: string): Promise<string> {
  const video = await getVideoCached(deps, id);
  return videoUrl(deps.config.webOrigin, video.data.author.uniqueId, video.data.id);
}

export const getVideo: Operation<typeof input> = {
  name: 'video',
  tool: 'platform_get_video',
  title: 'Get a video',
  description:
    'One video by its id: caption, publication time, view/like/comment/repost/share/save counts, author, hashtags, sound, cover images and downloadable media files with the headers needed to fetch them.',
  path: '/v1/platform/videos/:videoId',
  pathParams: ['videoId'],
  input,
  resultType: 'Video',
  output: 'VideoDocument',
  cacheKey: (i) => `video:${i.videoId}`,
  async run(i, deps) {
    const fetched = await getVideoCached(deps, i.videoId);
    return withContext(toVideo(fetched.data, mapContext(deps, fetched.chainToken)), deps.config.socialNsUrl);
  },
};
