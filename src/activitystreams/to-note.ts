// Maps a snake_case (aweme) comment or reply to an AS2 Note that replies to the video.
import type { RawComment } from '../upstream/raw.ts';
import type { MapContext, Note } from './types.ts';
import { toCommentAuthor } from './to-person.ts';
import { commentUrl } from './urls.ts';
import { pickCount, prune, text, toTimestamp } from './values.ts';

/**
 * `status` is the platform's comment status verbatim as a string; "1" (published, visible) is the
 * only value seen in samples, others are passed through without interpretation.
 */
export function toNote(comment: RawComment, ctx: MapContext, videoUrl: string): Note {
  const url = commentUrl(videoUrl, comment.cid);
  return prune({
    type: 'Note' as const,
    id: url,
    url,
    internalId: comment.cid,
    content: comment.text,
    published: toTimestamp(comment.create_time),
    likeCount: pickCount(comment.digg_count, undefined),
    replyCount: pickCount(comment.reply_comment_total, undefined),
    language: text(comment.comment_language),
    status: comment.status === undefined ? undefined : String(comment.status),
    isPinned: (comment.stick_position ?? 0) !== 0 || comment.author_pin === true,
    isLiked: comment.user_digged === 1,
    attributedTo: toCommentAuthor(comment.user, ctx),
    inReplyTo: videoUrl,
  });
}
