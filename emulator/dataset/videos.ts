// Videos, generated on demand from (seed, global index): owner, time, flags, stats, tags,
// subtitles. Each user's posts occupy a contiguous index range, oldest first.
import { between, createScrambler, hash32, makeId, pick, splitId, unit } from '../prng.ts';
import type { Scrambler } from '../prng.ts';
import { CAPTIONS, SPOKEN, SUBTITLE_LANGUAGES, TAGS } from '../words.ts';
import { DATASET_NOW, ROLE } from './users.ts';
import type { User } from './users.ts';

export type Video = {
  index: number;
  id: string;
  owner: User;
  /** Position among the owner's posts, 0 = oldest. */
  ordinal: number;
  createTime: number;
  duration: number;
  textLanguage: string;
  caption: string;
  /** Indexes into TAGS. */
  tags: number[];
  /** Index into SONGS, or -1 for the author's original sound. */
  song: number;
  playCount: number;
  diggCount: number;
  shareCount: number;
  collectCount: number;
  repostCount: number;
  topComments: number;
  deleted: boolean;
  privateItem: boolean;
  geoBlocked: boolean;
  photo: boolean;
  pinned: boolean;
  /** Served as a 200 MiB file in its best rendition (the manifest's `videos.large`). */
  large: boolean;
  /** Indexes into SUBTITLE_LANGUAGES; the first is the ASR (spoken) track, the rest MT. */
  subtitles: number[];
  /** Playlist slot of the owner, or -1. */
  playlist: number;
  width: number;
  height: number;
  /** Set by the control endpoint only: the count shown instead of the generated comments' total. */
  commentCount?: number;
};

/** Overrides on the public role user, counted from the newest post, so the manifest can name them. */
export const SPECIAL = { transcripts: 0, photo: 1, deleted: 2, private: 3, geoBlocked: 4, replies: 5, large: 6 } as const;
export const POPULAR_TAG = 0;
const TOPIC_TAGS = TAGS.length - 1;

export type VideoCounts = Pick<Video, 'playCount' | 'diggCount' | 'shareCount' | 'collectCount' | 'repostCount'> & { commentCount: number };

export type VideoStore = {
  /** Generated videos; published ones take the indexes from `total` on. */
  total: number;
  scrambler: Scrambler;
  video(index: number): Video;
  byId(id: string): Video | undefined;
  isVisible(video: Video): boolean;
  /** Control endpoint: a new post of `owner`, created at `nowSeconds` (an overlay on the seeded data). */
  publish(owner: User, tags: number[], nowSeconds: number): Video;
  /** Videos published through `publish`, oldest first. */
  published(): readonly Video[];
  /** Control endpoint: moves a video's counts (an overlay kept until the emulator stops). */
  patchCounts(video: Video, counts: Partial<VideoCounts>): Video;
};

function postTime(seed: number, owner: User, ordinal: number): number {
  const from = owner.createTime + 86_400;
  const step = (DATASET_NOW - 86_400 - from) / Math.max(owner.videoSlots, 1);
  const jitter = (unit(seed, 40, owner.index, ordinal) - 0.5) * 0.8;
  return Math.floor(from + (ordinal + 0.5 + jitter) * step);
}

function subtitlesFor(seed: number, index: number, lang: string, special: number): number[] {
  if (special === SPECIAL.transcripts) return [0, 1, 2, 3, 4, 5];
  if (unit(seed, 41, index) >= 0.35) return [];
  const spoken = SPOKEN[lang] ?? 0;
  const out = [spoken];
  const extra = between(0, 4, seed, 42, index);
  for (let k = 0; k < extra; k++) {
    const lang2 = hash32(seed, 43, index, k) % SUBTITLE_LANGUAGES.length;
    if (!out.includes(lang2)) out.push(lang2);
  }
  return out;
}

function statsFor(seed: number, index: number) {
  const playCount = Math.floor(Math.exp(unit(seed, 44, index) * Math.log(8_000_000))) + 50;
  const diggCount = Math.floor(playCount * (0.02 + unit(seed, 45, index) * 0.1));
  return {
    playCount,
    diggCount,
    shareCount: Math.floor(diggCount * unit(seed, 46, index) * 0.05),
    collectCount: Math.floor(diggCount * unit(seed, 47, index) * 0.1),
    repostCount: Math.floor(diggCount * unit(seed, 48, index) * 0.01),
  };
}

function buildVideo(seed: number, index: number, owner: User, scrambler: Scrambler): Video {
  const ordinal = index - owner.videoStart;
  const fromNewest = owner.videoSlots - 1 - ordinal;
  const special = owner.index === ROLE.public ? fromNewest : -1;
  const u = (salt: number) => unit(seed, salt, index);
  const langs = Object.keys(CAPTIONS);
  const lang = u(50) < 0.6 ? (owner.language in CAPTIONS ? owner.language : 'en') : pick(langs, seed, 51, index);
  const tags: number[] = index % 40 === 0 ? [POPULAR_TAG] : [];
  const tagCount = between(0, 2, seed, 52, index);
  for (let k = 0; k < tagCount; k++) {
    const t = 1 + (hash32(seed, 53, index, k) % TOPIC_TAGS);
    if (!tags.includes(t)) tags.push(t);
  }
  const createTime = postTime(seed, owner, ordinal);
  const ordinary = special < 0 && owner.index !== ROLE.public;
  const photo = special === SPECIAL.photo || (ordinary && u(54) < 0.06);
  const portrait = u(55) < 0.85;
  return {
    index,
    id: makeId(createTime, scrambler.encode(index)),
    owner,
    ordinal,
    createTime,
    duration: photo ? 0 : between(6, 180, seed, 56, index),
    textLanguage: lang,
    caption: pick(CAPTIONS[lang], seed, 57, index),
    tags,
    song: u(58) < 0.5 ? -1 : hash32(seed, 59, index) % 8,
    ...statsFor(seed, index),
    topComments: topCommentsOf(seed, owner, ordinal),
    deleted: special === SPECIAL.deleted || (ordinary && u(60) < 0.015),
    privateItem: special === SPECIAL.private || (ordinary && u(61) < 0.01),
    geoBlocked: special === SPECIAL.geoBlocked || (ordinary && u(62) < 0.007),
    photo,
    pinned: isPinned(seed, owner, ordinal),
    large: special === SPECIAL.large,
    subtitles: photo ? [] : subtitlesFor(seed, index, lang, special),
    playlist: owner.playlistCount > ordinal % 4 ? ordinal % 4 : -1,
    width: portrait ? 576 : 1024,
    height: portrait ? 1024 : 576,
  };
}

/** Top-level comment count; cheap on purpose, the comment store sums it over every video at start. */
export function topCommentsOf(seed: number, owner: User, ordinal: number): number {
  const index = owner.videoStart + ordinal;
  const special = owner.index === ROLE.public ? owner.videoSlots - 1 - ordinal : -1;
  if (special === SPECIAL.replies) return 45;
  if (special === SPECIAL.deleted || special === SPECIAL.private || special === SPECIAL.geoBlocked) return 0;
  return Math.floor(Math.pow(unit(seed, 63, index), 3) * 40);
}

/** Pinned posts: two older posts of the public role user and of about a third of the others. */
function isPinned(seed: number, owner: User, ordinal: number): boolean {
  if (owner.videoSlots < 12) return false;
  if (owner.index !== ROLE.public && unit(seed, 64, owner.index) >= 0.3) return false;
  return ordinal === 3 || ordinal === Math.floor(owner.videoSlots / 2);
}

export function createVideoStore(seed: number, users: User[]): VideoStore {
  const last = users[users.length - 1];
  const total = last.videoStart + last.videoSlots;
  const scrambler = createScrambler(seed, 2);
  function ownerOf(index: number): User {
    let lo = 0;
    let hi = users.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (users[mid].videoStart <= index) lo = mid;
      else hi = mid - 1;
    }
    return users[lo];
  }
  const extras: Video[] = [];
  const patches = new Map<number, Partial<VideoCounts>>();
  const video = (index: number): Video => {
    if (index >= total) {
      const extra = extras[index - total];
      if (!extra) throw new RangeError(`no video at index ${index}`);
      return { ...extra, ...patches.get(index) };
    }
    const built = buildVideo(seed, index, ownerOf(index), scrambler);
    const patch = patches.get(index);
    return patch ? { ...built, ...patch } : built;
  };
  return {
    total,
    scrambler,
    video,
    byId(id) {
      const parts = splitId(id);
      if (!parts) return undefined;
      const index = scrambler.decode(parts.low);
      if (parts.low > 0x7fffffff || index >= total + extras.length) return undefined;
      const found = video(index);
      return found.id === id ? found : undefined;
    },
    isVisible: (v) => !v.deleted && !v.privateItem && !v.geoBlocked && !v.owner.banned,
    publish(owner, tags, nowSeconds) {
      const index = total + extras.length;
      const base = buildVideo(seed, index, owner, scrambler);
      // A fresh post starts with no audience; flags that the seeded generator draws at random are cleared.
      const made: Video = {
        ...base,
        id: makeId(nowSeconds, scrambler.encode(index)),
        ordinal: owner.videoSlots + extras.filter((v) => v.owner === owner).length,
        createTime: nowSeconds,
        tags,
        playCount: 0, diggCount: 0, shareCount: 0, collectCount: 0, repostCount: 0, topComments: 0,
        deleted: false, privateItem: false, geoBlocked: false, pinned: false, playlist: -1,
      };
      extras.push(made);
      return made;
    },
    published: () => extras,
    patchCounts(target, counts) {
      patches.set(target.index, { ...patches.get(target.index), ...counts });
      return video(target.index);
    },
  };
}
