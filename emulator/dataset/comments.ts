// Comments and replies, generated on demand. Top-level comments of all videos share one global
// index space (a prefix-sum table maps index ↔ video); replies hang off their parent's index.
import { between, createScrambler, hash32, makeId, pick, splitId, unit } from '../prng.ts';
import { COMMENTS, REPLIES } from '../words.ts';
import { DATASET_NOW, ROLE } from './users.ts';
import type { User } from './users.ts';
import { SPECIAL, topCommentsOf } from './videos.ts';
import type { Video, VideoStore } from './videos.ts';

export type Comment = {
  cid: string;
  video: Video;
  author: User;
  createTime: number;
  text: string;
  language: string;
  diggCount: number;
  replyTotal: number;
  /** Non-zero for the pinned comment (platform `stick_position`). */
  stickPosition: number;
  authorDigged: boolean;
  /** Parent cid for replies, "0" for top-level comments. */
  replyId: string;
  replyToReplyId: string;
  /** Global top-level index (for replies: the parent's). */
  index: number;
};

export type CommentStore = {
  total: number;
  topLevel(video: Video, ordinal: number): Comment;
  replies(parent: Comment): Comment[];
  byId(cid: string): Comment | undefined;
  /** All replies of the video's comments, for the video's commentCount. */
  replyCountOfVideo(video: Video): number;
};

const REPLY_FLAG = 0x80000000;

function languageOf(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text.replace(/\p{Extended_Pictographic}|\uFE0F/gu, ''))) return 'en';
  return 'un';
}

function replyCountOf(seed: number, video: Video, ordinal: number, index: number): number {
  if (video.owner.index === ROLE.public && video.owner.videoSlots - 1 - video.ordinal === SPECIAL.replies) {
    if (ordinal === 1) return 27;
  }
  return unit(seed, 70, index) < 0.12 ? between(1, 12, seed, 71, index) : 0;
}

export function createCommentStore(seed: number, users: User[], videos: VideoStore): CommentStore {
  const starts = new Int32Array(videos.total + 1);
  for (const owner of users) {
    for (let ordinal = 0; ordinal < owner.videoSlots; ordinal++) {
      const index = owner.videoStart + ordinal;
      starts[index + 1] = starts[index] + topCommentsOf(seed, owner, ordinal);
    }
  }
  const scrambler = createScrambler(seed, 3);
  const replyScrambler = createScrambler(seed, 4);
  const authorOf = (...parts: number[]) => {
    const user = users[hash32(seed, ...parts) % users.length];
    return user.banned ? users[(user.index + 1) % users.length] : user;
  };

  function topLevel(video: Video, ordinal: number): Comment {
    const index = starts[video.index] + ordinal;
    const span = Math.max(DATASET_NOW - video.createTime, 120);
    const createTime = video.createTime + 60 + Math.floor(unit(seed, 72, index) * (span - 60));
    const text = pick(COMMENTS, seed, 73, index);
    const pinned = ordinal === 0 && (unit(seed, 74, video.index) < 0.2 || video.topComments === 45);
    return {
      cid: makeId(createTime, scrambler.encode(index)),
      video,
      author: pinned ? video.owner : authorOf(75, index),
      createTime,
      text,
      language: languageOf(text),
      diggCount: Math.floor(Math.pow(unit(seed, 76, index), 4) * 20_000),
      replyTotal: replyCountOf(seed, video, ordinal, index),
      stickPosition: pinned ? 1 : 0,
      authorDigged: unit(seed, 77, index) < 0.1,
      replyId: '0',
      replyToReplyId: '0',
      index,
    };
  }

  function replies(parent: Comment): Comment[] {
    const out: Comment[] = [];
    for (let j = 0; j < parent.replyTotal; j++) {
      const code = parent.index * 64 + j;
      const createTime = parent.createTime + 30 + j * 600 + between(0, 500, seed, 78, code);
      const text = pick(REPLIES, seed, 79, code);
      const answersReply = j > 1 && unit(seed, 80, code) < 0.3;
      out.push({
        cid: makeId(createTime, REPLY_FLAG | replyScrambler.encode(code)),
        video: parent.video,
        author: authorOf(81, code),
        createTime,
        text,
        language: languageOf(text),
        diggCount: between(0, 300, seed, 82, code),
        replyTotal: 0,
        stickPosition: 0,
        authorDigged: false,
        replyId: parent.cid,
        replyToReplyId: answersReply ? out[j - 1].cid : '0',
        index: parent.index,
      });
    }
    return out;
  }

  function videoOfComment(index: number): number {
    let lo = 0;
    let hi = videos.total - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  return {
    total: starts[videos.total],
    topLevel,
    replies,
    byId(cid) {
      const parts = splitId(cid);
      if (!parts || parts.low & REPLY_FLAG) return undefined;
      const index = scrambler.decode(parts.low);
      if (index >= starts[videos.total]) return undefined;
      const video = videos.video(videoOfComment(index));
      const found = topLevel(video, index - starts[video.index]);
      return found.cid === cid ? found : undefined;
    },
    replyCountOfVideo(video) {
      let sum = 0;
      for (let k = 0; k < video.topComments; k++) sum += replyCountOf(seed, video, k, starts[video.index] + k);
      return sum;
    },
  };
}
