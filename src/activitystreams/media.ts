// Media renditions of a video: one MediaFile per bitrate gear (or the plain play/download
// addresses when the payload has no gears), and Image attachments for photo posts.
import type { RawBitrateInfo, RawItem, RawVideo } from '../upstream/raw.ts';
import type { Image, MapContext, MediaFile } from './types.ts';
import { toImage } from './images.ts';
import { prune, text, toInt } from './values.ts';

/** CDN media answers 403 without the identity's chain-token cookie and a platform Referer (PLATFORM.md §5.4). */
export function mediaHeaders(ctx: MapContext): Record<string, string> {
  const headers: Record<string, string> = {};
  if (ctx.chainToken) headers.Cookie = `tt_chain_token=${ctx.chainToken}`;
  headers.Referer = `${ctx.webOrigin}/`;
  return headers;
}

export function toMediaFiles(video: RawVideo | undefined, ctx: MapContext): MediaFile[] {
  if (!video) return [];
  const gears = video.bitrateInfo ?? [];
  if (gears.length > 0) return gears.filter((g) => g.PlayAddr.UrlList.length > 0).map((g) => fromGear(g, ctx));
  return fromAddresses(video, ctx);
}

function fromGear(gear: RawBitrateInfo, ctx: MapContext): MediaFile {
  const addr = gear.PlayAddr;
  return prune({
    type: 'Video' as const,
    name: text(gear.GearName) ?? text(addr.UrlKey) ?? 'video',
    url: [...addr.UrlList],
    mediaType: `video/${text(gear.Format) ?? 'mp4'}`,
    codec: text(gear.CodecType),
    width: toInt(addr.Width),
    height: toInt(addr.Height),
    bitrate: toInt(gear.Bitrate),
    headers: mediaHeaders(ctx),
  });
}

/** Older and trimmed payloads have only `playAddr` (watermark-free) and `downloadAddr`. */
function fromAddresses(video: RawVideo, ctx: MapContext): MediaFile[] {
  const files: MediaFile[] = [];
  const seen = new Set<string>();
  for (const [name, url] of [['play', video.playAddr], ['download', video.downloadAddr]] as const) {
    const href = text(url);
    if (href === undefined || seen.has(href)) continue;
    seen.add(href);
    files.push(
      prune({
        type: 'Video' as const,
        name,
        url: [href],
        mediaType: `video/${text(video.format) ?? 'mp4'}`,
        codec: text(video.codecType),
        width: toInt(video.width),
        height: toInt(video.height),
        bitrate: toInt(video.bitrate),
        headers: mediaHeaders(ctx),
      }),
    );
  }
  return files;
}

/** The photos of a photo post, in order, each at its own size. */
export function toPhotoImages(item: RawItem): Image[] {
  const images: Image[] = [];
  for (const photo of item.imagePost?.images ?? []) {
    const image = toImage(photo.imageURL.urlList[0], toInt(photo.imageWidth), toInt(photo.imageHeight));
    if (image) images.push(image);
  }
  return images;
}
