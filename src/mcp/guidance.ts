// What the tool server tells a model beyond the REST reference: the server instructions, and per
// tool how to keep answers small. Defaults stay REST's (full pages); the advice steers agents to
// `minimal` or `standard` and small counts. Measured sizes: docs/mcp.md.
import type { Operation } from '../operations/types.ts';

/** The MCP initialize result's `instructions`. */
export function instructionsFor(serviceName: string): string {
  return [
    `${serviceName} reads public data of the short-video platform (profiles, videos, comments, replies, followers, likes, reposts, playlists, live rooms, transcripts) and answers ActivityStreams JSON, the same data as its REST API.`,
    'Start with platform_get_user (a username) or platform_get_video (a video id).',
    'Keep answers small: the default projection_preset, full, returns every image size and media rendition with download headers, and a default page of 30 to 35 videos is over 100,000 tokens, more than most clients accept in one result.',
    'Pass projection_preset "minimal" to read, count and compare (ids, usernames, text, counts, timestamps and cursors: under 5% of full for videos, a page of 10 is under 2,000 tokens), "standard" when you need a cover, an avatar or one playable media file, and "full" only for every rendition.',
    'Ask for small pages (count 5 to 10) and continue with the nextCursor of the previous page; a page without nextCursor is the last.',
    'In minimal, objects carry no URLs: a video, comment, playlist or live room is named by internalId (the videoId or commentId the tools take), a person by preferredUsername, a hashtag by name.',
    'platform_get_video_transcript returns the WebVTT text only in standard or full; minimal tells whether a transcript exists and its source and size.',
  ].join(' ');
}

/** The `projection_preset` argument as a model sees it. */
export const PRESET_ADVICE =
  'How much of each object to return. "minimal": ids, usernames, text, counts, timestamps and cursors, no URLs or media; the cheapest, use it to read, count, compare and page. "standard": adds one cover and avatar image and one media file per codec with its download headers. "full" (default, as REST): every image size and rendition; large.';

/** The `count` argument as a model sees it. */
export function countAdvice(max: number, defaultValue: unknown): string {
  return `Items per page, 1 to ${max} (default ${String(defaultValue)}). Ask for what you need, e.g. 5 to 10, and page on with nextCursor: every item costs tokens.`;
}

/** A tool's description: the operation's own, then how to call it cheaply. */
export function toolDescription(op: Operation): string {
  return `${op.description} ${adviceFor(op)}`;
}

function adviceFor(op: Operation): string {
  if (op.tool === 'platform_get_video_transcript') {
    return 'Call it without projection_preset (or with "standard") to read the text: "minimal" leaves the text out and only tells whether the transcript exists, its source and size.';
  }
  if (op.itemType === 'Video') {
    return 'The default full page is very large (every rendition and image of every video): pass projection_preset "minimal" and a count of 5 to 10 unless you need media URLs.';
  }
  if (op.itemType) {
    return 'Pass projection_preset "minimal" and a small count (5 to 10) to keep the answer small.';
  }
  return 'Pass projection_preset "minimal" unless you need image or media URLs ("standard" has one of each).';
}
