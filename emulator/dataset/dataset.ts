// The whole emulated platform's data for one seed: users (eager), videos and comments (lazy),
// lists, lookups by every identifier the endpoints accept, and the manifest of notable entities.
import { createCommentStore } from './comments.ts';
import type { CommentStore } from './comments.ts';
import { createLists } from './lists.ts';
import type { Lists } from './lists.ts';
import { createScrambler, makeId } from '../prng.ts';
import { createUsers, ROLE } from './users.ts';
import type { User } from './users.ts';
import { createVideoStore, SPECIAL } from './videos.ts';
import type { Video, VideoStore } from './videos.ts';
import { SUBTITLE_LANGUAGES } from '../words.ts';
import { LARGE_MEDIA_BYTES } from '../wire/media-bytes.ts';

export type Manifest = {
  seed: number;
  users: {
    public: string;
    private: string;
    hiddenLikes: string;
    live: string;
    notLive: string;
    manyVideos: string;
    hiddenFollowers: string;
    withPlaylists: string;
    withReposts: string;
    banned: string;
  };
  videos: {
    withTranscripts: { id: string; languages: string[] };
    withReplies: { id: string; commentId: string };
    deleted: string;
    photo: string;
    private: string;
    geoBlocked: string;
    pinned: string;
    /** A public video whose best rendition is `bytes` long (200 MiB), generated on the fly. */
    large: { id: string; bytes: number };
  };
  tags: { popular: string; popularId: string };
  counts: { users: number; videos: number; comments: number };
};

export type Dataset = {
  seed: number;
  users: User[];
  videos: VideoStore;
  comments: CommentStore;
  lists: Lists;
  userByUniqueId(uniqueId: string): User | undefined;
  userBySecUid(secUid: string): User | undefined;
  userByRoomId(roomId: string): User | undefined;
  /** Control endpoint: starts a live in a new room (its id carries the start time) or ends it. */
  setLive(user: User, live: boolean, nowSeconds: number): void;
  manifest: Manifest;
};

function specialVideo(users: User[], videos: VideoStore, fromNewest: number): Video {
  const owner = users[ROLE.public];
  return videos.video(owner.videoStart + owner.videoSlots - 1 - fromNewest);
}

function buildManifest(seed: number, users: User[], videos: VideoStore, comments: CommentStore, lists: Lists): Manifest {
  const name = (index: number) => users[index].uniqueId;
  const transcripts = specialVideo(users, videos, SPECIAL.transcripts);
  const replies = specialVideo(users, videos, SPECIAL.replies);
  const popular = lists.tags[0];
  const pinned = lists.posts(users[ROLE.public]).find((v) => v.pinned);
  return {
    seed,
    users: {
      public: name(ROLE.public),
      private: name(ROLE.private),
      hiddenLikes: name(ROLE.hiddenLikes),
      live: name(ROLE.live),
      notLive: name(ROLE.notLive),
      manyVideos: name(ROLE.manyVideos),
      hiddenFollowers: name(ROLE.hiddenFollowers),
      withPlaylists: name(ROLE.public),
      withReposts: name(ROLE.public),
      banned: name(ROLE.banned),
    },
    videos: {
      withTranscripts: {
        id: transcripts.id,
        languages: transcripts.subtitles.map((k) => SUBTITLE_LANGUAGES[k].bcp47),
      },
      withReplies: { id: replies.id, commentId: comments.topLevel(replies, 1).cid },
      deleted: specialVideo(users, videos, SPECIAL.deleted).id,
      photo: specialVideo(users, videos, SPECIAL.photo).id,
      private: specialVideo(users, videos, SPECIAL.private).id,
      geoBlocked: specialVideo(users, videos, SPECIAL.geoBlocked).id,
      pinned: pinned ? pinned.id : '',
      large: { id: specialVideo(users, videos, SPECIAL.large).id, bytes: LARGE_MEDIA_BYTES },
    },
    tags: { popular: popular.title, popularId: popular.id },
    counts: { users: users.length, videos: videos.total, comments: comments.total },
  };
}

export function createDataset(seed: number): Dataset {
  const users = createUsers(seed);
  const videos = createVideoStore(seed, users);
  const comments = createCommentStore(seed, users, videos);
  const lists = createLists(seed, users, videos);
  const byUniqueId = new Map(users.map((u) => [u.uniqueId.toLowerCase(), u]));
  const bySecUid = new Map(users.map((u) => [u.secUid, u]));
  const byRoomId = new Map(users.map((u) => [u.roomId, u]));
  return {
    seed,
    users,
    videos,
    comments,
    lists,
    userByUniqueId: (uniqueId) => byUniqueId.get(uniqueId.replace(/^@/, '').toLowerCase()),
    userBySecUid: (secUid) => bySecUid.get(secUid),
    userByRoomId: (roomId) => byRoomId.get(roomId),
    setLive(user, live, nowSeconds) {
      if (live && !user.live) {
        // Same construction as the seeded room ids; earlier rooms keep resolving to their owner.
        user.liveStartTime = nowSeconds;
        user.roomId = makeId(nowSeconds, createScrambler(seed, 1).encode(user.index));
        byRoomId.set(user.roomId, user);
      }
      user.live = live;
    },
    manifest: buildManifest(seed, users, videos, comments, lists),
  };
}
