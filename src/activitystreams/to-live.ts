// Maps a live room (the api-live room summary plus webcast room info) to an AS2 Video with one
// MediaFile per stream quality and protocol, best quality first.
import type { LiveRoomInfo, LiveStream, RawLiveRoom } from '../upstream/types.ts';
import type { LiveVideo, MapContext, MediaFile } from './types.ts';
import { toImage } from './images.ts';
import { toPerson } from './to-person.ts';
import { liveUrl } from './urls.ts';
import { prune, text, toTimestamp } from './values.ts';

/**
 * Room info is what the live player reads, so it wins; the api-live summary fills what it lacks.
 * The platform publishes only the current audience of a live (`user_count`,
 * `liveRoomStats.userCount`), so it is both `viewerCount` and `viewCount`.
 */
export function toLive(room: RawLiveRoom, info: LiveRoomInfo, ctx: MapContext): LiveVideo {
  const uniqueId = room.user?.uniqueId ?? info.ownerUniqueId ?? '';
  const url = liveUrl(ctx.webOrigin, uniqueId);
  const viewers = info.viewerCount ?? room.viewerCount;
  const streams = info.streams.length > 0 ? info.streams : room.streams;
  const attachment = streams.flatMap(toMediaFiles);
  return prune({
    type: 'Video' as const,
    id: url,
    url,
    internalId: text(info.roomId) ?? text(room.roomId),
    isLive: true as const,
    summary: text(info.title) ?? text(room.title),
    published: toTimestamp(info.createTime) ?? toTimestamp(room.startTime),
    viewCount: viewers,
    viewerCount: viewers,
    attributedTo: room.user ? toPerson(room.user, undefined, undefined, ctx) : undefined,
    image: toImage(info.coverUrl) ?? toImage(room.coverUrl),
    attachment,
  });
}

/**
 * A rendition is named by its platform quality key (origin, hd, sd, ld; FULL_HD1, HD1, …), so its
 * FLV and HLS files share the name and differ by mediaType. No headers: live CDNs need no cookie.
 */
function toMediaFiles(stream: LiveStream): MediaFile[] {
  const files: MediaFile[] = [];
  const add = (href: string | undefined, mediaType: string) => {
    if (href === undefined) return;
    const { codec, width, height, bitrate } = stream;
    files.push(prune({ type: 'Video' as const, name: stream.quality, url: [href], mediaType, codec, width, height, bitrate }));
  };
  add(stream.flv, 'video/x-flv');
  add(stream.hls, 'application/vnd.apple.mpegurl');
  return files;
}
