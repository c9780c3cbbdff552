// CDN files: video renditions, sounds, WebVTT subtitles, images and live streams. Bodies are
// synthetic but sized as the metadata says (`DataSize`, subtitle `Size`); media streams, with Range.
import { decodeFileKey, FILE_KIND, GEARS, gearOfFileId, itemIdFromVideoIdString } from '../wire/urls.ts';
import { renditionSize } from '../wire/item.ts';
import { mediaSlice, MP3_MAGIC, MP4_MAGIC, type MediaBytes } from '../wire/media-bytes.ts';
import type { Dataset } from '../dataset/dataset.ts';
import { buildVtt } from '../wire/vtt.ts';
import { SUBTITLE_LANGUAGES } from '../words.ts';
import { hash32 } from '../prng.ts';
import { textReply } from './types.ts';
import type { Handler, PlatformRequest, Reply } from './types.ts';

/** Smallest baseline JPEG (1×1), enough for clients and browsers to accept the image. */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==',
  'base64',
);

const notFound = (): Reply => textReply(404, 'Not Found', 'text/plain');

function synthetic(size: number, magic: Buffer, part: number): Buffer {
  return mediaSlice({ size, contentType: '', magic, part }, 0, size);
}

/** The bytes of one rendition of a video, or undefined when the platform would not serve it. */
export function renditionFile(ds: Dataset, itemId: string, gear: number): MediaBytes | undefined {
  const video = ds.videos.byId(itemId);
  if (!video || !ds.videos.isVisible(video) || gear >= GEARS.length) return undefined;
  return { size: renditionSize(video, gear), contentType: 'video/mp4', magic: MP4_MAGIC, part: hash32(video.index, gear) };
}

/** The bytes of a sound (`music.playUrl`). */
export function soundFile(musicId: string): MediaBytes {
  return { size: 240_000, contentType: 'audio/mpeg', magic: MP3_MAGIC, part: Number(BigInt(musicId) % 1_000_000n) };
}

/**
 * Serves one `bytes=a-b`, `bytes=a-` or `bytes=-n` range with 206, an unsatisfiable one with 416,
 * and anything else (no header, several ranges, garbage) with the whole file, as CDNs do.
 */
export function withRange(req: PlatformRequest, file: MediaBytes): Reply {
  const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''));
  const base = { 'content-type': file.contentType, 'accept-ranges': 'bytes' };
  if (!range || (range[1] === '' && range[2] === '')) return { status: 200, headers: base, stream: { file, start: 0, end: file.size - 1 } };
  const start = range[1] === '' ? Math.max(0, file.size - Number(range[2])) : Number(range[1]);
  const end = range[1] === '' || range[2] === '' ? file.size - 1 : Math.min(Number(range[2]), file.size - 1);
  if (start >= file.size || start > end) {
    return { status: 416, headers: { ...base, 'content-range': `bytes */${file.size}` }, body: '' };
  }
  return { status: 206, headers: { ...base, 'content-range': `bytes ${start}-${end}/${file.size}` }, stream: { file, start, end } };
}

function videoFile(req: PlatformRequest, itemId: string, gear: number): Reply {
  const file = renditionFile(req.ds, itemId, gear);
  return file ? withRange(req, file) : notFound();
}

function subtitleFile(req: PlatformRequest, itemId: string, language: number): Reply {
  const video = req.ds.videos.byId(itemId);
  if (!video || !req.ds.videos.isVisible(video) || !video.subtitles.includes(language)) return notFound();
  return textReply(200, buildVtt(video.id, language, video.duration), 'text/vtt; charset=utf-8');
}

/** `/video/tos/…/<key>/` and `/subtitle/…/<key>/`: the key says what to serve. */
export const keyedFile: Handler = (req) => {
  const segments = req.path.split('/').filter(Boolean);
  const key = decodeFileKey(segments[segments.length - 1] ?? '');
  if (!key) return notFound();
  if (key.kind === FILE_KIND.video) return videoFile(req, key.id, key.slot);
  if (key.kind === FILE_KIND.subtitle) return subtitleFile(req, key.id, key.slot);
  return withRange(req, soundFile(key.id));
};

/** `/aweme/v1/play/`: the web host's redirector for video files and subtitles. */
export const playRedirector: Handler = (req) => {
  if (req.query.get('format') === 'webvtt') {
    const itemId = itemIdFromVideoIdString(req.query.get('video_id') ?? '');
    const language = SUBTITLE_LANGUAGES.findIndex((l) => l.code === req.query.get('language'));
    return itemId && language >= 0 ? subtitleFile(req, itemId, language) : notFound();
  }
  const itemId = req.query.get('item_id') ?? itemIdFromVideoIdString(req.query.get('video_id') ?? '');
  return itemId ? videoFile(req, itemId, gearOfFileId(itemId, req.query.get('file_id'))) : notFound();
};

export const imageFile: Handler = () => ({
  status: 200,
  headers: { 'content-type': 'image/jpeg', 'cache-control': 'max-age=86400' },
  body: JPEG,
});

/** Live streams: a short FLV, an HLS playlist, and its segments. */
export const streamFile: Handler = (req) => {
  const m = /^\/stage\/stream-(\d+)(_[a-z0-9]+)?(\.flv|\/index\.m3u8|\/seg-\d+\.ts)$/.exec(req.path);
  if (!m || !req.ds.userByRoomId(String(BigInt(m[1]) - 1_000_000_000n))?.live) return notFound();
  if (m[3] === '.flv') {
    return textReply(200, synthetic(64_000, Buffer.from('464c5601050000000900000000', 'hex'), 1), 'video/x-flv');
  }
  if (m[3].endsWith('.ts')) return textReply(200, synthetic(32_000, Buffer.from([0x47]), 2), 'video/mp2t');
  const base = `/stage/stream-${m[1]}${m[2] ?? ''}`;
  const seq = Math.floor(req.nowMs / 2000);
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:2', `#EXT-X-MEDIA-SEQUENCE:${seq}`];
  for (let k = 0; k < 3; k++) lines.push('#EXTINF:2.000,', `${req.ctx.origin}${base}/seg-${seq + k}.ts`);
  return textReply(200, lines.join('\n') + '\n', 'application/vnd.apple.mpegurl');
};
