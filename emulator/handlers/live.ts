// Live endpoints (PLATFORM.md §2.11): `/api-live/user/room/` on the web host, and the webcast
// host's `room/info` and `room/check_alive`, with stream URLs served by this emulator.
import type { User } from '../dataset/users.ts';
import { hexFrom } from '../prng.ts';
import { authorOf } from '../wire/user.ts';
import { avatarUrl, coverUrl, streamUrls } from '../wire/urls.ts';
import type { WireContext } from '../wire/urls.ts';
import { userCounts } from '../wire/user.ts';
import { jsonReply } from './types.ts';
import type { Handler, PlatformRequest } from './types.ts';

// `key` is the legacy pull-URL map key, `sdk` the SDK stream-data key of the same stream; `name` is
// optional in the platform's quality options, so one quality goes without it.
const QUALITIES = [
  { key: 'FULL_HD1', sdk: 'origin', name: 'Original', suffix: '_or4', level: 4, res: '1080x1920', vbitrate: 3_000_000 },
  { key: 'HD1', sdk: 'hd', name: 'HD', suffix: '_hd', level: 3, res: '720x1280', vbitrate: 1_500_000 },
  { key: 'SD1', sdk: 'ld', name: undefined, suffix: '_ld', level: 1, res: '360x640', vbitrate: 500_000 },
  { key: 'SD2', sdk: 'sd', name: 'SD', suffix: '_sd', level: 2, res: '480x854', vbitrate: 800_000 },
] as const;

type Quality = (typeof QUALITIES)[number];
const paramsOf = (q: Quality) => JSON.stringify({ VCodec: 'h264', vbitrate: q.vbitrate, resolution: q.res });

const streamIdOf = (user: User) => String(BigInt(user.roomId) + 1_000_000_000n);
const titleOf = (user: User) => `${user.nickname} is LIVE 🔴 Q&A`;
const viewersOf = (user: User) => 40 + (Number(BigInt(user.roomId) % 5000n));

function streamDataOf(ctx: WireContext, user: User) {
  const urls = streamUrls(ctx, streamIdOf(user));
  const data: Record<string, unknown> = {};
  for (const q of QUALITIES) {
    data[q.sdk] = {
      main: {
        flv: urls.flv(q.suffix), hls: urls.hls(q.suffix), cmaf: '', dash: '', lls: '', tile: '', tsl: '',
        sdk_params: JSON.stringify({ VCodec: 'h264', vbitrate: q.vbitrate, resolution: q.res, gop: 4, drType: 'sdk' }),
      },
    };
  }
  return {
    pull_data: {
      options: {
        default_quality: { level: 3, name: 'HD', sdk_key: 'hd' },
        qualities: QUALITIES.map((q) => ({ level: q.level, ...(q.name ? { name: q.name } : {}), resolution: q.res, sdk_key: q.sdk })),
      },
      stream_data: JSON.stringify({ common: { session_id: hexFrom(24, Number(user.roomId.slice(-8))) }, data }),
    },
  };
}

function streamUrlOf(ctx: WireContext, user: User) {
  const urls = streamUrls(ctx, streamIdOf(user));
  const flv: Record<string, string> = {};
  const flvParams: Record<string, string> = {};
  const hlsMap: Record<string, string> = {};
  for (const q of QUALITIES) {
    flv[q.key] = urls.flv(q.suffix);
    flvParams[q.key] = paramsOf(q);
    hlsMap[q.key] = urls.hls(q.suffix);
  }
  // Per YTDLP: `flv_pull_url_params` maps each key to a JSON string; `hls_pull_url_params` is one.
  return {
    candidate_resolution: QUALITIES.map((q) => q.key), default_resolution: 'HD1',
    flv_pull_url: flv, flv_pull_url_params: flvParams,
    hls_pull_url: urls.hls('_hd'), hls_pull_url_map: hlsMap, hls_pull_url_params: paramsOf(QUALITIES[1]),
    id: Number(streamIdOf(user)), id_str: streamIdOf(user),
    live_core_sdk_data: streamDataOf(ctx, user), rtmp_pull_url: urls.flv(''),
  };
}

function roomCover(ctx: WireContext, user: User): string {
  return coverUrl(ctx, 'l' + hexFrom(30, Number(user.roomId.slice(-8))), 'tiktokx-cropcenter:720:720.webp');
}

function extraOf(req: PlatformRequest) {
  return { extra: { now: req.nowMs, logid: req.ctx.logid, fatal_item_ids: [] }, log_pb: { impr_id: req.ctx.logid } };
}

export const liveUserRoom: Handler = (req) => {
  const uniqueId = req.query.get('uniqueId');
  const user = uniqueId ? req.ds.userByUniqueId(uniqueId) : undefined;
  if (!user || user.banned) {
    return jsonReply({ data: null, ...extraOf(req), message: 'user_not_found', statusCode: 19881007 });
  }
  const c = userCounts(req.ds, user);
  const live = user.live && !user.privateAccount;
  const liveRoom = {
    coverUrl: roomCover(req.ctx, user), hevcStreamData: {}, liveRoomStats: { userCount: live ? viewersOf(user) : 0 },
    mode: 0, squareCoverImg: roomCover(req.ctx, user), startTime: live ? user.liveStartTime : 0,
    status: live ? 2 : 4, streamData: live ? streamDataOf(req.ctx, user) : {}, streamId: live ? streamIdOf(user) : '',
    title: live ? titleOf(user) : '',
  };
  return jsonReply({
    data: {
      liveRoom,
      stats: { followerCount: c.followerCount, followingCount: c.followingCount },
      user: { ...authorOf(req.ctx, user), roomId: live ? user.roomId : '', status: live ? 2 : 0 },
    },
    ...extraOf(req),
    message: '',
    statusCode: 0,
  });
};

function roomOf(req: PlatformRequest, user: User) {
  const live = user.live;
  return {
    cover: { url_list: [roomCover(req.ctx, user)] }, create_time: user.liveStartTime, id: Number(user.roomId),
    id_str: user.roomId, like_count: viewersOf(user) * 31, owner_user_id: Number(user.id), owner_user_id_str: user.id,
    owner: {
      avatar_thumb: { url_list: [avatarUrl(req.ctx, user.id, 100)] }, display_id: user.uniqueId, id: Number(user.id),
      id_str: user.id, nickname: user.nickname, sec_uid: user.secUid,
    },
    status: live ? 2 : 4, title: titleOf(user), user_count: live ? viewersOf(user) : 0,
    ...(live ? { stream_url: streamUrlOf(req.ctx, user) } : {}),
  };
}

export const roomInfo: Handler = (req) => {
  const roomId = req.query.get('room_id') ?? req.query.get('roomID') ?? '';
  const user = req.ds.userByRoomId(roomId);
  if (!user || user.banned) {
    return jsonReply({ data: { message: 'Room does not exist', prompts: '' }, ...extraOf(req), status_code: 30003 });
  }
  if (user.privateAccount) {
    return jsonReply({ data: { message: 'This account is private', prompts: 'Follow the creator to watch their LIVE' }, ...extraOf(req), status_code: 4003110 });
  }
  return jsonReply({ data: roomOf(req, user), ...extraOf(req), status_code: 0 });
};

export const checkAlive: Handler = (req) => {
  const ids = (req.query.get('room_ids') ?? req.query.get('room_id') ?? '').split(',').filter(Boolean).slice(0, 50);
  if (ids.length === 0) return jsonReply({ data: { message: 'invalid room_ids' }, ...extraOf(req), status_code: 10011 });
  const data = ids.map((id) => {
    const user = req.ds.userByRoomId(id);
    return { alive: Boolean(user && user.live && !user.banned), room_id: Number(id), room_id_str: id };
  });
  return jsonReply({ data, ...extraOf(req), status_code: 0 });
};
