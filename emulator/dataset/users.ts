// The emulator's users: a few with fixed roles (the manifest points at them) and thousands of
// ordinary ones, all derived from the seed. Users are few enough to build eagerly at start.
import { between, bytesFrom, createScrambler, hash32, makeId, pick, unit } from '../prng.ts';
import { BIOS, NAME_PARTS, NAME_TOPICS, NICK_DECOR, NICK_FORMS } from '../words.ts';

export const USER_COUNT = 2400;
/** The dataset's "now": fixed so the same seed gives the same times on every run. */
export const DATASET_NOW = 1_760_000_000;

/** Fixed user indexes with a role; the manifest names them. */
export const ROLE = {
  manyVideos: 0,
  public: 1,
  private: 2,
  hiddenLikes: 3,
  live: 4,
  notLive: 5,
  hiddenFollowers: 6,
  banned: 7,
} as const;

export type User = {
  index: number;
  id: string;
  uniqueId: string;
  secUid: string;
  nickname: string;
  signature: string;
  createTime: number;
  verified: boolean;
  privateAccount: boolean;
  openFavorite: boolean;
  hiddenFollowers: boolean;
  banned: boolean;
  live: boolean;
  roomId: string;
  liveStartTime: number;
  region: string;
  language: string;
  /** Allocated posts: global video indexes [videoStart, videoStart + videoSlots). */
  videoStart: number;
  videoSlots: number;
  followerSlots: number;
  followingSlots: number;
  likeSlots: number;
  repostSlots: number;
  playlistCount: number;
  heart: number;
  friendCount: number;
};

const REGIONS = ['US', 'DE', 'FR', 'ES', 'JP', 'BR', 'GB', 'MX', 'KR', 'IT'] as const;
const LANGS = ['en', 'de', 'fr', 'es', 'ja', 'pt', 'en', 'es', 'ko', 'it'] as const;

function videoSlotsFor(seed: number, index: number): number {
  if (index === ROLE.manyVideos) return 5200;
  if (index === ROLE.public) return 80;
  if (index === ROLE.private || index === ROLE.hiddenLikes || index === ROLE.hiddenFollowers) return 24;
  return Math.floor(Math.pow(unit(seed, 11, index), 1.5) * 56);
}

function uniqueIdFor(seed: number, index: number): string {
  const a = pick(NAME_PARTS, seed, 12, index);
  const b = pick(NAME_TOPICS, seed, 13, index);
  const n = between(1, 99, seed, 14, index);
  switch (hash32(seed, 15, index) % 5) {
    case 0: return `${a}.${b}`;
    case 1: return `${a}_${b}${n}`;
    case 2: return `${b}.with.${a}`;
    case 3: return `${a}${n}_`;
    default: return `the_${a}.${b}`;
  }
}

function nicknameFor(seed: number, index: number): string {
  const form = pick(NICK_FORMS, seed, 16, index);
  const base = form(pick(NAME_PARTS, seed, 12, index), pick(NAME_TOPICS, seed, 13, index));
  return base + pick(NICK_DECOR, seed, 17, index);
}

function buildUser(seed: number, index: number, videoStart: number, taken: Set<string>): User {
  const u = (salt: number) => unit(seed, salt, index);
  let uniqueId = uniqueIdFor(seed, index);
  for (let k = 2; taken.has(uniqueId); k++) uniqueId = `${uniqueIdFor(seed, index)}${k}`;
  taken.add(uniqueId);
  const createTime = 1_546_300_800 + Math.floor(u(20) * 170_000_000);
  const scramble = createScrambler(seed, 1);
  const roleLive = index === ROLE.live || (index > 7 && u(21) < 0.03);
  const liveStartTime = DATASET_NOW - between(600, 7200, seed, 22, index);
  const region = pick(REGIONS, seed, 23, index);
  return {
    index,
    id: makeId(createTime, scramble.encode(index)),
    uniqueId,
    secUid: 'MS4wLjABAAAA' + bytesFrom(48, seed, 24, index).toString('base64url'),
    nickname: nicknameFor(seed, index),
    signature: pick(BIOS, seed, 25, index),
    createTime,
    verified: u(26) < 0.05 || index === ROLE.manyVideos,
    privateAccount: index === ROLE.private || (index > 7 && u(27) < 0.05),
    openFavorite: index === ROLE.public || index === ROLE.manyVideos || (index !== ROLE.hiddenLikes && u(28) < 0.5),
    hiddenFollowers: index === ROLE.hiddenFollowers || (index > 7 && u(29) < 0.04),
    banned: index === ROLE.banned || (index > 7 && u(30) < 0.01),
    live: roleLive && index !== ROLE.notLive,
    roomId: makeId(liveStartTime, scramble.encode(index)),
    liveStartTime,
    region,
    language: LANGS[REGIONS.indexOf(region)],
    videoStart,
    videoSlots: videoSlotsFor(seed, index),
    followerSlots: index === ROLE.public ? 1200 : Math.floor(Math.pow(u(31), 4) * 1500),
    followingSlots: index === ROLE.public ? 176 : between(0, 300, seed, 32, index),
    likeSlots: index === ROLE.public ? 120 : between(0, 150, seed, 33, index),
    repostSlots: index === ROLE.public ? 45 : u(34) < 0.3 ? between(1, 40, seed, 35, index) : 0,
    playlistCount: index === ROLE.public ? 3 : u(36) < 0.15 ? between(1, 3, seed, 37, index) : 0,
    heart: Math.floor(Math.exp(u(38) * Math.log(50_000_000))),
    friendCount: between(0, 80, seed, 39, index),
  };
}

export function createUsers(seed: number): User[] {
  const users: User[] = [];
  const taken = new Set<string>();
  let videoStart = 0;
  for (let index = 0; index < USER_COUNT; index++) {
    const user = buildUser(seed, index, videoStart, taken);
    videoStart += user.videoSlots;
    users.push(user);
  }
  return users;
}
