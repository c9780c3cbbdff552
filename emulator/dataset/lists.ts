// Every list the platform pages through, computed per owner and cached: posts (three orders),
// likes, reposts, followers, following, playlists and tag feeds. Only visible videos are listed.
import { LRUCache } from 'lru-cache';
import { createScrambler, hash32, makeId, pick, splitId } from '../prng.ts';
import { TAGS } from '../words.ts';
import { DATASET_NOW } from './users.ts';
import type { User } from './users.ts';
import type { Video, VideoStore } from './videos.ts';

export type Keyed<T> = { value: T; key: number };
export type Playlist = { mixId: string; name: string; owner: User; slot: number; createTime: number };
export type Tag = { index: number; id: string; title: string };

export type Lists = {
  posts(user: User): Video[];
  popular(user: User): Video[];
  likes(user: User): Keyed<Video>[];
  reposts(user: User): Video[];
  followers(user: User): Keyed<User>[];
  following(user: User): Keyed<User>[];
  playlists(user: User): Playlist[];
  playlistById(mixId: string): Playlist | undefined;
  playlistItems(playlist: Playlist): Video[];
  tags: Tag[];
  tagByName(name: string): Tag | undefined;
  tagById(id: string): Tag | undefined;
  /** Global video indexes of the tag's feed (materialize only the page you serve). */
  tagVideoIndexes(tag: Tag): number[];
  /** Drops every computed list, after a control endpoint changed the data under them. */
  forget(): void;
};

const PLAYLIST_NAMES = ['Best of the year ✨', 'Recipes', 'Travel diaries', 'Behind the scenes', 'Tutorials'];

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** A permutation walk over [0, n): distinct values for the first n steps. */
function walk(n: number, ...parts: number[]): (k: number) => number {
  const start = hash32(...parts, 1) % n;
  let stride = (hash32(...parts, 2) % n) | 1;
  while (gcd(stride, n) !== 1) stride += 2;
  return (k) => (start + k * stride) % n;
}

export function createLists(seed: number, users: User[], videos: VideoStore): Lists {
  const cache = new LRUCache<string, unknown[]>({ max: 2048 });
  function cached<T>(key: string, build: () => T[]): T[] {
    const hit = cache.get(key);
    if (hit) return hit as T[];
    const made = build();
    cache.set(key, made);
    return made;
  }
  const ownPosts = (user: User) =>
    cached(`posts:${user.index}`, () => {
      const out: Video[] = [];
      for (let k = 0; k < user.videoSlots; k++) {
        const v = videos.video(user.videoStart + k);
        if (videos.isVisible(v)) out.push(v);
      }
      // Posts published through the control endpoints are the newest.
      for (const v of videos.published()) if (v.owner === user) out.push(videos.video(v.index));
      return out;
    });
  function pickedVideos(user: User, salt: number, slots: number): Video[] {
    const step = walk(videos.total, seed, salt, user.index);
    const out: Video[] = [];
    for (let k = 0; k < slots; k++) {
      const v = videos.video(step(k));
      if (videos.isVisible(v) && !v.owner.privateAccount) out.push(v);
    }
    return out;
  }
  function pickedUsers(user: User, salt: number, slots: number): Keyed<User>[] {
    const step = walk(users.length, seed, salt, user.index);
    const out: Keyed<User>[] = [];
    const n = Math.min(slots, users.length);
    for (let k = 0; k < n; k++) {
      const other = users[step(k)];
      if (other === user || other.banned) continue;
      out.push({ value: other, key: DATASET_NOW - k * 2000 - (hash32(seed, salt + 1, user.index, k) % 1000) });
    }
    return out;
  }
  const scrambleMix = createScrambler(seed, 5);
  const playlistOf = (owner: User, slot: number): Playlist => {
    const createTime = owner.createTime + 86_400 * 30 + slot;
    return {
      mixId: makeId(createTime, scrambleMix.encode(owner.index * 4 + slot)),
      name: pick(PLAYLIST_NAMES, seed, 90, owner.index, slot),
      owner,
      slot,
      createTime,
    };
  };
  const scrambleTag = createScrambler(seed, 6);
  const tags: Tag[] = TAGS.map((title, index) => ({
    index,
    title,
    id: index < 30 ? String(229_207 + index * 4_099) : makeId(1_600_000_000 + index * 86_400, scrambleTag.encode(index)),
  }));
  const tagsByName = new Map(tags.map((t) => [t.title.toLowerCase(), t]));
  const tagsById = new Map(tags.map((t) => [t.id, t]));
  let tagIndex: Map<number, number[]> | undefined;

  return {
    posts: ownPosts,
    popular: (user) =>
      cached(`popular:${user.index}`, () =>
        [...ownPosts(user)].sort((a, b) => b.playCount - a.playCount || a.index - b.index),
      ),
    likes: (user) =>
      cached(`likes:${user.index}`, () =>
        pickedVideos(user, 91, user.likeSlots).map((value, k) => ({
          value,
          key: DATASET_NOW * 1000 - k * 5_400_000 - (hash32(seed, 92, user.index, k) % 1_000_000),
        })),
      ),
    reposts: (user) => cached(`reposts:${user.index}`, () => pickedVideos(user, 93, user.repostSlots)),
    followers: (user) => cached(`followers:${user.index}`, () => pickedUsers(user, 94, user.followerSlots)),
    following: (user) => cached(`following:${user.index}`, () => pickedUsers(user, 96, user.followingSlots)),
    playlists: (user) => Array.from({ length: user.playlistCount }, (_, slot) => playlistOf(user, slot)),
    playlistById(mixId) {
      const parts = splitId(mixId);
      if (!parts || parts.low > 0x7fffffff) return undefined;
      const code = scrambleMix.decode(parts.low);
      const owner = users[code >> 2];
      if (!owner || (code & 3) >= owner.playlistCount) return undefined;
      const found = playlistOf(owner, code & 3);
      return found.mixId === mixId ? found : undefined;
    },
    playlistItems: (p) => ownPosts(p.owner).filter((v) => v.playlist === p.slot),
    tags,
    tagByName: (name) => tagsByName.get(name.toLowerCase()),
    tagById: (id) => tagsById.get(id),
    tagVideoIndexes(tag) {
      if (!tagIndex) {
        tagIndex = new Map();
        for (let i = 0; i < videos.total; i++) {
          const v = videos.video(i);
          if (!videos.isVisible(v) || v.owner.privateAccount) continue;
          for (const t of v.tags) {
            const list = tagIndex.get(t) ?? [];
            list.push(v.index);
            tagIndex.set(t, list);
          }
        }
      }
      const published = videos.published().filter((v) => v.tags.includes(tag.index) && !v.owner.privateAccount);
      return [...(tagIndex.get(tag.index) ?? []), ...published.map((v) => v.index)];
    },
    forget: () => cache.clear(),
  };
}
