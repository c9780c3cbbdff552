// Wire shapes of the platform's web endpoints, as recorded in ../shared/platform-samples/.
// Schemas pin what reelay reads and drop the rest: a new platform field never breaks parsing, a
// missing or retyped one is caught as a changed shape, and cached platform pages stay small.
import { z } from 'zod';

const str = z.string();
/** Counts and times arrive as numbers in 2025+ samples and as strings in older ones. */
const num = z.union([z.number(), z.string()]);
const urlList = z.array(z.string());

export const RawAuthor = z.object({
  id: str,
  uniqueId: str,
  nickname: str.optional(),
  secUid: str.optional(),
  avatarThumb: str.optional(),
  avatarMedium: str.optional(),
  avatarLarger: str.optional(),
  signature: str.optional(),
  verified: z.boolean().optional(),
  privateAccount: z.boolean().optional(),
  secret: z.boolean().optional(),
  openFavorite: z.boolean().optional(),
  roomId: str.optional(),
  createTime: num.optional(),
  language: str.optional(),
  region: str.optional(),
  bioLink: z.object({ link: str, risk: z.number().optional() }).optional(),
  profileTab: z.object({ showPlayListTab: z.boolean().optional() }).optional(),
  canExpPlaylist: z.boolean().optional(),
  followingVisibility: z.number().optional(),
});
export type RawAuthor = z.infer<typeof RawAuthor>;

/** `stats` holds rounded numbers; `statsV2` the exact values as strings. */
export const RawUserStats = z.object({
  followerCount: num.optional(),
  followingCount: num.optional(),
  heart: num.optional(),
  heartCount: num.optional(),
  videoCount: num.optional(),
  diggCount: num.optional(),
  friendCount: num.optional(),
});
export type RawUserStats = z.infer<typeof RawUserStats>;

export const RawItemStats = z.object({
  playCount: num.optional(),
  diggCount: num.optional(),
  commentCount: num.optional(),
  shareCount: num.optional(),
  collectCount: num.optional(),
  repostCount: num.optional(),
});
export type RawItemStats = z.infer<typeof RawItemStats>;

export const RawPlayAddr = z.object({
  DataSize: num.optional(),
  Width: z.number().optional(),
  Height: z.number().optional(),
  Uri: str.optional(),
  UrlKey: str.optional(),
  UrlList: urlList,
  FileHash: str.optional(),
});

export const RawBitrateInfo = z.object({
  Bitrate: z.number(),
  CodecType: str.optional(),
  Format: str.optional(),
  GearName: str.optional(),
  QualityType: z.number().optional(),
  PlayAddr: RawPlayAddr,
});
export type RawBitrateInfo = z.infer<typeof RawBitrateInfo>;

export const RawSubtitleInfo = z.object({
  Format: str.optional(),
  LanguageCodeName: str,
  LanguageID: str.optional(),
  Size: num.optional(),
  Source: str.optional(),
  Url: str,
  UrlExpire: num.optional(),
  Version: str.optional(),
});
export type RawSubtitleInfo = z.infer<typeof RawSubtitleInfo>;

export const RawVideo = z.object({
  id: str.optional(),
  duration: z.number().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  ratio: str.optional(),
  definition: str.optional(),
  bitrate: z.number().optional(),
  codecType: str.optional(),
  format: str.optional(),
  cover: str.optional(),
  originCover: str.optional(),
  dynamicCover: str.optional(),
  playAddr: str.optional(),
  downloadAddr: str.optional(),
  bitrateInfo: z.array(RawBitrateInfo).optional(),
  subtitleInfos: z.array(RawSubtitleInfo).optional(),
});
export type RawVideo = z.infer<typeof RawVideo>;

export const RawMusic = z.object({
  id: str,
  title: str.optional(),
  authorName: str.optional(),
  album: str.optional(),
  duration: z.number().optional(),
  playUrl: str.optional(),
  coverLarge: str.optional(),
  coverMedium: str.optional(),
  coverThumb: str.optional(),
  original: z.boolean().optional(),
  isCopyrighted: z.boolean().optional(),
  private: z.boolean().optional(),
});
export type RawMusic = z.infer<typeof RawMusic>;

export const RawChallenge = z.object({
  id: str,
  title: str,
  desc: str.optional(),
  coverLarger: str.optional(),
  profileLarger: str.optional(),
});
export type RawChallenge = z.infer<typeof RawChallenge>;

export const RawTextExtra = z.object({
  type: z.number().optional(),
  hashtagName: str.optional(),
  hashtagId: str.optional(),
  userUniqueId: str.optional(),
  start: z.number().optional(),
  end: z.number().optional(),
});

export const RawImagePost = z.object({
  images: z.array(
    z.object({
      imageURL: z.object({ urlList: urlList }),
      imageWidth: z.number().optional(),
      imageHeight: z.number().optional(),
    }),
  ),
  cover: z.object({ imageURL: z.object({ urlList: urlList }).optional() }).optional(),
  title: str.optional(),
});

export const RawPoi = z.object({ id: str.optional(), name: str, city: str.optional(), country: str.optional() });

/** `itemStruct`: one video (or photo post) in the camelCase dialect. */
export const RawItem = z.object({
  id: str,
  desc: str.optional(),
  createTime: num,
  author: RawAuthor,
  authorStats: RawUserStats.optional(),
  authorStatsV2: RawUserStats.optional(),
  stats: RawItemStats.optional(),
  statsV2: RawItemStats.optional(),
  video: RawVideo.optional(),
  music: RawMusic.optional(),
  challenges: z.array(RawChallenge).optional(),
  textExtra: z.array(RawTextExtra).optional(),
  textLanguage: str.optional(),
  isAd: z.boolean().optional(),
  adAuthorization: z.boolean().optional(),
  isPinnedItem: z.boolean().optional(),
  privateItem: z.boolean().optional(),
  secret: z.boolean().optional(),
  locationCreated: str.optional(),
  poi: RawPoi.optional(),
  imagePost: RawImagePost.optional(),
  playlistId: str.optional(),
});
export type RawItem = z.infer<typeof RawItem>;

/** Every JSON body carries both status spellings on camelCase endpoints; comments carry only snake. */
const statusFields = {
  statusCode: z.number().optional(),
  status_code: z.number().optional(),
  status_msg: str.optional(),
  statusMsg: str.optional(),
};

export const RawUserDetailBody = z.object({
  ...statusFields,
  userInfo: z.object({ user: RawAuthor, stats: RawUserStats.optional(), statsV2: RawUserStats.optional() }),
});
export type RawUserDetailBody = z.infer<typeof RawUserDetailBody>;

/** post, repost, favorite, challenge and mix item lists share this shape. */
export const RawItemListBody = z.object({
  ...statusFields,
  itemList: z.array(RawItem).optional(),
  hasMore: z.boolean().optional(),
  cursor: num.optional(),
});
export type RawItemListBody = z.infer<typeof RawItemListBody>;

/** `/api/creator/item_list/`: newest first, `hasMorePrevious` instead of `hasMore`, no cursor. */
export const RawCreatorListBody = z.object({
  ...statusFields,
  itemList: z.array(RawItem).optional(),
  hasMorePrevious: z.boolean().optional(),
});
export type RawCreatorListBody = z.infer<typeof RawCreatorListBody>;

export const RawUserListEntry = z.object({
  user: RawAuthor,
  stats: RawUserStats.optional(),
  statsV2: RawUserStats.optional(),
});
export type RawUserListEntry = z.infer<typeof RawUserListEntry>;

/** `/api/user/list/`: a hidden list omits `userList` entirely (PLATFORM.md §2.7). */
export const RawUserListBody = z.object({
  ...statusFields,
  userList: z.array(RawUserListEntry).optional(),
  hasMore: z.boolean().optional(),
  minCursor: num.optional(),
  maxCursor: num.optional(),
  total: z.number().optional(),
});
export type RawUserListBody = z.infer<typeof RawUserListBody>;

export const RawPlaylist = z.object({
  mixId: str.optional(),
  id: str.optional(),
  mixName: str.optional(),
  name: str.optional(),
  videoCount: num.optional(),
  cover: str.optional(),
  creator: RawAuthor.optional(),
});
export type RawPlaylist = z.infer<typeof RawPlaylist>;

export const RawPlaylistBody = z.object({
  ...statusFields,
  playList: z.array(RawPlaylist).optional(),
  hasMore: z.boolean().optional(),
  cursor: num.optional(),
});
export type RawPlaylistBody = z.infer<typeof RawPlaylistBody>;

export const RawItemDetailBody = z.object({
  ...statusFields,
  itemInfo: z.object({ itemStruct: RawItem }).optional(),
});
export type RawItemDetailBody = z.infer<typeof RawItemDetailBody>;

const RawImageUrls = z.object({ uri: str.optional(), url_list: urlList });

/** snake_case (aweme) user of the comment endpoints. */
export const RawCommentUser = z.object({
  uid: str,
  unique_id: str,
  nickname: str.optional(),
  sec_uid: str.optional(),
  avatar_thumb: RawImageUrls.optional(),
  custom_verify: str.optional(),
});
export type RawCommentUser = z.infer<typeof RawCommentUser>;

export const RawComment = z.object({
  cid: str,
  aweme_id: str,
  text: str,
  create_time: num,
  digg_count: num.optional(),
  reply_comment_total: num.optional(),
  reply_id: str.optional(),
  reply_to_reply_id: str.optional(),
  comment_language: str.optional(),
  status: z.number().optional(),
  stick_position: z.number().optional(),
  author_pin: z.boolean().optional(),
  user_digged: z.number().optional(),
  is_author_digged: z.boolean().optional(),
  user: RawCommentUser,
  share_info: z.object({ url: str.optional() }).optional(),
});
export type RawComment = z.infer<typeof RawComment>;

export const RawCommentListBody = z.object({
  status_code: z.number().optional(),
  status_msg: str.optional(),
  comments: z.array(RawComment).nullable().optional(),
  cursor: num.optional(),
  has_more: z.number().optional(),
  total: z.number().optional(),
});
export type RawCommentListBody = z.infer<typeof RawCommentListBody>;

export const RawChallengeDetailBody = z.object({
  ...statusFields,
  challengeInfo: z
    .looseObject({
      challenge: RawChallenge,
      stats: z.object({ videoCount: num.optional(), viewCount: num.optional() }).optional(),
      statsV2: z.object({ videoCount: num.optional(), viewCount: num.optional() }).optional(),
    })
    .optional(),
});
export type RawChallengeDetailBody = z.infer<typeof RawChallengeDetailBody>;

/**
 * `/api-live/user/room/` (PLATFORM.md §2.11). `streamData.pull_data` (a JSON string of stream URLs
 * plus quality options) and the viewer count are read leniently in normalize.ts: a malformed part
 * loses that part, never the room.
 */
export const RawLiveUserRoomBody = z.object({
  statusCode: z.number().optional(),
  message: str.optional(),
  data: z
    .object({
      user: RawAuthor.nullable().optional(),
      liveRoom: z
        .object({
          status: z.number(),
          title: str.optional(),
          startTime: num.optional(),
          coverUrl: str.optional(),
          liveRoomStats: z.object({ userCount: z.unknown() }).partial().optional().catch(undefined),
          streamData: z.object({ pull_data: z.unknown() }).partial().optional().catch(undefined),
        })
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
});
export type RawLiveUserRoomBody = z.infer<typeof RawLiveUserRoomBody>;

/** `webcast/room/info/` data; `stream_url` is read leniently in normalize.ts, like api-live's streams. */
export const RawRoomInfo = z.object({
  id_str: str.optional(),
  status: z.number(),
  title: str.optional(),
  user_count: z.unknown().optional(),
  create_time: num.optional(),
  owner: z.object({ display_id: str.optional() }).optional(),
  cover: z.object({ url_list: urlList }).optional(),
  stream_url: z.record(str, z.unknown()).optional().catch(undefined),
});
export type RawRoomInfo = z.infer<typeof RawRoomInfo>;

export const RawRoomInfoBody = z.object({
  status_code: z.number(),
  data: z.union([RawRoomInfo, z.object({ message: str.optional(), prompts: str.optional() })]).optional(),
});
export type RawRoomInfoBody = z.infer<typeof RawRoomInfoBody>;
