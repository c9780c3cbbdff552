// Maps a live room (the profile's room summary plus webcast room info) to an AS2 Video with one
// MediaFile per FLV quality and one for HLS.
import type { RawRoomInfo } from '../upstream/raw.ts';
import type { RawLiveRoom } from '../upstream/types.ts';
import type { LiveVideo, MapContext, MediaFile } from './types.ts';
import { toImage } from './images.ts';
import { toPerson } from './to-person.ts';
import { liveUrl } from './urls.ts';
import { extra, pickCount, prune, text, toInt, toTimestamp } from './values.ts';

/** Best first; the platform spells the top quality "ORIGION" (PLATFORM.md §2.11). */
const QUALITY_RANK = ['ORIGION', 'origin', 'FULL_HD1', 'uhd', 'HD1', 'hd', 'SD2', 'sd', 'SD1', 'ld'];

type StreamParams = { codec?: string; width?: number; height?: number; bitrate?: number };

export function toLive(room: RawLiveRoom, info: RawRoomInfo, ctx: MapContext): LiveVideo {
  const uniqueId = room.user?.uniqueId ?? info.owner?.display_id ?? '';
  const url = liveUrl(ctx.webOrigin, uniqueId);
  const stats = room.liveRoom?.liveRoomStats;
  const attachment = toStreams(info);
  return prune({
    type: 'Video' as const,
    id: url,
    url,
    internalId: text(info.id_str) ?? text(room.roomId),
    isLive: true as const,
    summary: text(info.title) ?? text(room.liveRoom?.title),
    published: toTimestamp(info.create_time) ?? toTimestamp(room.liveRoom?.startTime),
    viewCount: pickCount(info.total_user, stats?.enterCount),
    viewerCount: pickCount(info.user_count, stats?.userCount),
    attributedTo: room.user ? toPerson(room.user, undefined, undefined, ctx) : undefined,
    image: toImage(info.cover?.url_list[0]) ?? toImage(room.liveRoom?.coverUrl),
    attachment: attachment.length > 0 ? attachment : undefined,
  });
}

/**
 * Each FLV rendition is named by its platform quality key (FULL_HD1, HD1, SD1, …) so renditions
 * stay distinguishable; the HLS playlist is named "hls". No headers: live CDNs need no cookie.
 */
function toStreams(info: RawRoomInfo): MediaFile[] {
  const streamUrl = info.stream_url;
  if (!streamUrl) return [];
  const params = sdkParamsByUrl(streamUrl.live_core_sdk_data);
  const rank = (key: string) => (QUALITY_RANK.includes(key) ? QUALITY_RANK.indexOf(key) : QUALITY_RANK.length);
  const flv = Object.entries(streamUrl.flv_pull_url ?? {})
    .filter(([, href]) => text(href) !== undefined)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([quality, href]) => media(quality, href, 'video/x-flv', params.get(href)));
  const hls = text(streamUrl.hls_pull_url);
  if (hls !== undefined) flv.push(media('hls', hls, 'application/vnd.apple.mpegurl', params.get(hls)));
  return flv;
}

function media(name: string, href: string, mediaType: string, p: StreamParams | undefined): MediaFile {
  return prune({ type: 'Video' as const, name, url: [href], mediaType, ...p });
}

/**
 * `live_core_sdk_data.pull_data.stream_data` is a JSON string whose per-quality `main.sdk_params`
 * is another JSON string (VCodec, vbitrate, resolution "WxH"); matched to renditions by URL.
 */
function sdkParamsByUrl(sdkData: unknown): Map<string, StreamParams> {
  const byUrl = new Map<string, StreamParams>();
  const streamData = parseJson(extra(extra(sdkData, 'pull_data'), 'stream_data'));
  const qualities = asObject(extra(streamData, 'data'));
  for (const entry of Object.values(qualities ?? {})) {
    const main = asObject(extra(entry, 'main'));
    const sdk = asObject(parseJson(extra(main, 'sdk_params')));
    if (!main || !sdk) continue;
    const [width, height] = String(extra(sdk, 'resolution') ?? '').split('x').map((n) => toInt(n));
    const p = prune({ codec: text(extra(sdk, 'VCodec')), width, height, bitrate: toInt(extra(sdk, 'vbitrate')) });
    for (const key of ['flv', 'hls']) {
      const href = text(extra(main, key));
      if (href !== undefined) byUrl.set(href, p);
    }
  }
  return byUrl;
}

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

function asObject(value: unknown): object | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}
