// The contract between operations and the platform client: one method per platform operation,
// each resolving with validated raw platform data or rejecting with a classified AppError.
import type {
  RawAuthor,
  RawUserStats,
  RawItem,
  RawUserListEntry,
  RawPlaylist,
  RawComment,
  RawChallenge,
} from './raw.ts';
import type { LiveStream } from './live-streams.ts';

export type { LiveStream } from './live-streams.ts';

/** The closed set every platform outcome is classified into (see classify.ts). */
export type UpstreamOutcome =
  | 'ok'
  | 'not_found'
  | 'private_account'
  | 'private_content'
  | 'geo_blocked'
  | 'blocked'
  | 'rate_limited'
  | 'upstream_error'
  /** DNS, connection refused or TLS failed: no answer at all (the host, egress or a proxy is down). */
  | 'unreachable'
  | 'timeout'
  /** The caller gave up (request deadline, client gone) before the platform answered. */
  | 'cancelled';

/** What every call carries besides its data: the media cookie of the identity that fetched it. */
export type Fetched<T> = {
  data: T;
  /** `tt_chain_token` cookie value of the identity used; media URLs need it (PLATFORM.md §5.4). */
  chainToken: string | undefined;
};

/** One platform page of a list, with the platform's own cursor to continue from. */
export type RawPage<T> = {
  items: T[];
  hasMore: boolean;
  /** Platform cursor for the next request, verbatim as a string; undefined when none was given. */
  nextCursor: string | undefined;
  /** Platform total where the endpoint gives one. */
  total: number | undefined;
};

export type UserOrder = 'newest' | 'popular' | 'oldest';

export type RawUserProfile = {
  user: RawAuthor;
  stats: RawUserStats | undefined;
  statsV2: RawUserStats | undefined;
};

/** `/api-live/user/room/`: whether and where the user is live, with the room's own summary. */
export type RawLiveRoom = {
  user: RawAuthor | undefined;
  /** Empty when the user is not live. */
  roomId: string | undefined;
  /** 2 = live (PLATFORM.md §2.11). */
  status: number | undefined;
  title: string | undefined;
  /** Unix seconds, as the platform sends it. */
  startTime: number | string | undefined;
  coverUrl: string | undefined;
  /** `liveRoom.liveRoomStats.userCount`: people watching now. */
  viewerCount: number | undefined;
  /** From `liveRoom.streamData.pull_data`, best first. */
  streams: LiveStream[];
};

/** `webcast/room/info/`: the room as the live player sees it. */
export type LiveRoomInfo = {
  roomId: string | undefined;
  /** 2 live, 4 ended (PLATFORM.md §2.11). */
  status: number;
  title: string | undefined;
  createTime: number | string | undefined;
  coverUrl: string | undefined;
  ownerUniqueId: string | undefined;
  /** `user_count`: people watching now. */
  viewerCount: number | undefined;
  /** `stream_url.live_core_sdk_data.pull_data`, else the legacy pull-URL maps; best first. */
  streams: LiveStream[];
};

export type PageRequest = { cursor: string; count: number };

export interface PlatformClient {
  /** The same client whose calls stop (and stop their platform requests) when `signal` aborts. */
  withSignal(signal: AbortSignal | undefined): PlatformClient;
  /** `/api/user/detail/` (falls back to the profile page's rehydration data). */
  getUser(username: string): Promise<Fetched<RawUserProfile>>;
  /** `/api/post/item_list/`, `post_item_list_request_type` 0 newest / 1 popular / 2 oldest. */
  getUserPosts(secUid: string, order: UserOrder, page: PageRequest): Promise<Fetched<RawPage<RawItem>>>;
  /** `/api/repost/item_list/`. */
  getUserReposts(secUid: string, page: PageRequest): Promise<Fetched<RawPage<RawItem>>>;
  /** `/api/favorite/item_list/`; hidden likes reject with `private_content`. */
  getUserLikes(secUid: string, page: PageRequest): Promise<Fetched<RawPage<RawItem>>>;
  /** `/api/user/playlist/`. */
  getUserPlaylists(secUid: string, page: PageRequest): Promise<Fetched<RawPage<RawPlaylist>>>;
  /** `/api/user/list/` scene 67; the cursor is the platform's minCursor ("0" first). */
  getUserFollowers(secUid: string, page: PageRequest): Promise<Fetched<RawPage<RawUserListEntry>>>;
  /** `/api/item/detail/`, falling back to the video page's `webapp.video-detail` (and back). */
  getVideo(videoId: string): Promise<Fetched<RawItem>>;
  /** `/api/comment/list/` (snake_case dialect). */
  getComments(videoId: string, page: PageRequest): Promise<Fetched<RawPage<RawComment>>>;
  /** `/api/comment/list/reply/`. */
  getReplies(videoId: string, commentId: string, page: PageRequest): Promise<Fetched<RawPage<RawComment>>>;
  /** `/api/challenge/detail/?challengeName=`: tag name to challenge (id, title, stats). */
  getTag(tagName: string): Promise<Fetched<{ challenge: RawChallenge; videoCount: number | undefined }>>;
  /** `/api/challenge/item_list/?challengeID=`. */
  getTagVideos(challengeId: string, page: PageRequest): Promise<Fetched<RawPage<RawItem>>>;
  /** `/api-live/user/room/?uniqueId=`. */
  getLiveRoom(username: string): Promise<Fetched<RawLiveRoom>>;
  /** `webcast/room/info/?room_id=`: status, title, viewers, stream URLs. */
  getRoomInfo(roomId: string): Promise<Fetched<LiveRoomInfo>>;
  /** Downloads one subtitle file (WebVTT text) from a `subtitleInfos[].Url`. */
  getSubtitle(url: string): Promise<Fetched<string>>;
}
