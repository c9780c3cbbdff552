// User objects in both dialects: camelCase author/profile (`user`, `stats`, `statsV2`) as in the
// user-detail and post-list samples, and the snake_case comment user of the comment samples.
import { roundCount } from '../prng.ts';
import type { Dataset } from '../dataset/dataset.ts';
import type { User } from '../dataset/users.ts';
import { avatarUrl } from './urls.ts';
import type { WireContext } from './urls.ts';

export type UserCounts = {
  diggCount: number;
  followerCount: number;
  followingCount: number;
  friendCount: number;
  heart: number;
  heartCount: number;
  videoCount: number;
};

const memo = new WeakMap<Dataset, Map<number, UserCounts>>();

/** Exact counts, equal to the lengths of the lists the endpoints page through; memoized per user. */
export function userCounts(ds: Dataset, user: User): UserCounts {
  let byUser = memo.get(ds);
  if (!byUser) memo.set(ds, (byUser = new Map()));
  const hit = byUser.get(user.index);
  if (hit) return hit;
  const counts = computeCounts(ds, user);
  byUser.set(user.index, counts);
  return counts;
}

/** After a control endpoint changed a user's posts, their counts are computed again. */
export function forgetUserCounts(ds: Dataset): void {
  memo.delete(ds);
}

function computeCounts(ds: Dataset, user: User): UserCounts {
  const heart = user.heart;
  return {
    diggCount: ds.lists.likes(user).length,
    followerCount: ds.lists.followers(user).length,
    followingCount: ds.lists.following(user).length,
    friendCount: user.friendCount,
    heart,
    heartCount: heart,
    videoCount: ds.lists.posts(user).length,
  };
}

/** `stats` numbers are display-rounded; `statsV2` carries the exact values as strings. */
export function statsPair<T extends Record<string, number>>(counts: T) {
  const stats: Record<string, number> = {};
  const statsV2: Record<string, string> = {};
  for (const [k, v] of Object.entries(counts)) {
    stats[k] = roundCount(v);
    statsV2[k] = String(v);
  }
  return { stats, statsV2 };
}

/** The author object embedded in items and user lists. */
export function authorOf(ctx: WireContext, user: User) {
  return {
    UserStoryStatus: 0,
    avatarLarger: avatarUrl(ctx, user.id, 1080),
    avatarMedium: avatarUrl(ctx, user.id, 720),
    avatarThumb: avatarUrl(ctx, user.id, 100),
    commentSetting: 0,
    downloadSetting: user.index % 4 === 3 ? 3 : 0,
    duetSetting: 0,
    ftc: false,
    id: user.id,
    isADVirtual: false,
    isEmbedBanned: false,
    nickname: user.nickname,
    openFavorite: user.openFavorite,
    privateAccount: user.privateAccount,
    relation: 0,
    secUid: user.secUid,
    secret: user.privateAccount,
    signature: user.signature,
    stitchSetting: 0,
    ttSeller: false,
    uniqueId: user.uniqueId,
    verified: user.verified,
  };
}

/** The fuller user object of `/api/user/detail/` and the profile page. */
export function profileUserOf(ctx: WireContext, user: User) {
  return {
    ...authorOf(ctx, user),
    bioLink: user.index % 5 === 1 ? { link: `linktr.ee/${user.uniqueId}`, risk: 0 } : undefined,
    canExpPlaylist: user.playlistCount > 0,
    commerceUserInfo: { commerceUser: false },
    createTime: user.createTime,
    eventList: [],
    followingVisibility: user.hiddenFollowers ? 2 : 1,
    isOrganization: 0,
    language: user.language,
    nickNameModifyTime: user.createTime + 3_000_000,
    profileEmbedPermission: 1,
    profileTab: { showMusicTab: false, showQuestionTab: false, showPlayListTab: user.playlistCount > 0 },
    recommendReason: '',
    region: user.region,
    roomId: user.live ? user.roomId : '',
    shortId: '',
    suggestAccountBind: false,
    uniqueIdModifyTime: 0,
  };
}

/** The user object of the snake_case (comment) dialect. */
export function commentUserOf(ctx: WireContext, user: User) {
  const thumb = avatarUrl(ctx, user.id, 100);
  return {
    account_labels: null,
    ad_cover_url: null,
    advance_feature_item_order: null,
    advanced_feature_info: null,
    avatar_thumb: { uri: `tos-useast5-avt-0068/${user.id}`, url_list: [thumb], url_prefix: null },
    bold_fields: null,
    can_message_follow_status_list: null,
    can_set_geofencing: null,
    cha_list: null,
    cover_url: null,
    custom_verify: user.verified ? 'Verified account' : '',
    enterprise_verify_reason: '',
    events: null,
    followers_detail: null,
    geofencing: null,
    homepage_bottom_toast: null,
    item_list: null,
    mutual_relation_avatars: null,
    need_points: null,
    nickname: user.nickname,
    platform_sync_info: null,
    relative_users: null,
    search_highlight: null,
    sec_uid: user.secUid,
    shield_edit_field_info: null,
    type_label: null,
    uid: user.id,
    unique_id: user.uniqueId,
    user_profile_guide: null,
    user_tags: null,
    white_cover_url: null,
  };
}

/** An entry of `/api/user/list/`: `{user, stats, statsV2}`. */
export function userListEntryOf(ctx: WireContext, ds: Dataset, user: User) {
  return { ...statsPair(userCounts(ds, user)), user: authorOf(ctx, user) };
}
