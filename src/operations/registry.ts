// The twelve operations, declared once; REST routes, MCP tools and OpenAPI are generated from this list.
import type { Operation } from './types.ts';
import { getTagVideos } from './get-tag-videos.ts';
import { getUser } from './get-user.ts';
import { getUserVideos } from './get-user-videos.ts';
import { getUserReposts } from './get-user-reposts.ts';
import { getUserLikes } from './get-user-likes.ts';
import { getUserCollections } from './get-user-collections.ts';
import { getUserFollowers } from './get-user-followers.ts';
import { getUserLive } from './get-user-live.ts';
import { getVideo } from './get-video.ts';
import { getVideoComments } from './get-video-comments.ts';
import { getCommentReplies } from './get-comment-replies.ts';
import { getVideoTranscript } from './get-video-transcript.ts';

export const OPERATIONS: readonly Operation[] = [
  getTagVideos,
  getUserVideos,
  getUserReposts,
  getUserLikes,
  getUserCollections,
  getUserFollowers,
  getUserLive,
  getVideo,
  getVideoComments,
  getCommentReplies,
  getVideoTranscript,
  getUser,
] as unknown as readonly Operation[];

export function findOperationByTool(tool: string): Operation | undefined {
  return OPERATIONS.find((op) => op.tool === tool);
}
