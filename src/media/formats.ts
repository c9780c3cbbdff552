// Which file a media request means: the rendition names of the video's `attachment`, plus `best`
// (the default), `h264`, `audio`, `cover` and `photo-N`. Pure: AS2 Video in, one choice out.
import { AppError } from '../errors.ts';
import type { Image, MediaFile, Video } from '../activitystreams/types.ts';

export type MediaChoice = {
  /** The format name as resolved (`best` resolves to a rendition's name). */
  name: string;
  kind: 'video' | 'audio' | 'image';
  /** Download URLs in order of preference. */
  urls: string[];
  headers: Record<string, string>;
  /** Expected type; the CDN's own Content-Type wins when it sends one. */
  mediaType: string;
};

export const DEFAULT_FORMAT = 'best';
/** What a format parameter may look like before it is looked up. */
export const FORMAT_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** `download` is the watermarked file; every rendition of `bitrateInfo` is clean. */
const WATERMARKED = new Set(['download']);

const isRendition = (entry: MediaFile | Image): entry is MediaFile => entry.type === 'Video';

/** Larger frame first, then higher bitrate; the platform's order breaks ties. */
function bestOf(files: MediaFile[]): MediaFile | undefined {
  let best: MediaFile | undefined;
  const area = (f: MediaFile) => (f.width ?? 0) * (f.height ?? 0);
  for (const file of files) {
    if (!best || area(file) > area(best) || (area(file) === area(best) && (file.bitrate ?? 0) > (best.bitrate ?? 0))) best = file;
  }
  return best;
}

/** Every name `format` accepts for this video, in a stable order. */
export function formatsOf(video: Video, headers: Record<string, string>): string[] {
  return [...choices(video, headers).keys()];
}

function choices(video: Video, headers: Record<string, string>): Map<string, MediaChoice> {
  const out = new Map<string, MediaChoice>();
  const attachment = video.attachment ?? [];
  const renditions = attachment.filter(isRendition);
  const fromFile = (file: MediaFile): MediaChoice => ({ name: file.name, kind: 'video', urls: file.url, headers: file.headers ?? headers, mediaType: file.mediaType });
  const clean = renditions.filter((f) => !WATERMARKED.has(f.name));
  const best = bestOf(clean.length > 0 ? clean : renditions);
  if (best) out.set(DEFAULT_FORMAT, fromFile(best));
  // Browsers without HEVC (Firefox, most of Chromium on Linux) play only H.264 in <video>.
  const h264 = bestOf(clean.filter((f) => /^(h264|avc)/i.test(f.codec ?? '')));
  if (h264) out.set('h264', fromFile(h264));
  for (const file of renditions) if (!out.has(file.name)) out.set(file.name, fromFile(file));
  // The sound's file when the platform gave one (its `url` is then not the sound's page).
  if (video.audio && video.audio.mediaType && video.audio.url !== video.audio.id) {
    out.set('audio', { name: 'audio', kind: 'audio', urls: [video.audio.url], headers, mediaType: video.audio.mediaType });
  }
  const cover = video.image ?? video.icon;
  if (cover) out.set('cover', { name: 'cover', kind: 'image', urls: [cover.url], headers, mediaType: 'image/jpeg' });
  attachment.filter((e): e is Image => e.type === 'Image').forEach((image, i) => {
    out.set(`photo-${i + 1}`, { name: `photo-${i + 1}`, kind: 'image', urls: [image.url], headers, mediaType: 'image/jpeg' });
  });
  return out;
}

/**
 * The file `format` names. Unknown names are a 400 listing the names this video has; `best` on a
 * photo post (no renditions) is `no_media`, as is `audio` for a video without a sound file.
 */
export function chooseMedia(video: Video, format: string, headers: Record<string, string>): MediaChoice {
  const all = choices(video, headers);
  const hit = all.get(format);
  if (hit) return hit;
  const formats = [...all.keys()];
  if (format === DEFAULT_FORMAT || format === 'h264' || format === 'audio') {
    throw new AppError('no_media', `This video has no "${format}" file.`, { details: { formats } });
  }
  throw new AppError('invalid_request', `Unknown format "${format}"; this video has: ${formats.join(', ')}.`, {
    details: { params: [{ name: 'format', reason: 'not a format of this video' }], formats },
  });
}
