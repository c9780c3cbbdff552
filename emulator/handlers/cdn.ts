// CDN files: video renditions, sounds, WebVTT subtitles, images and live streams. Bodies are
// synthetic but sized as the metadata says (`DataSize`, subtitle `Size`), with Range support.
import { DEFAULT_GEAR, decodeFileKey, FILE_KIND, GEARS, itemIdFromVideoIdString } from '../wire/urls.ts';
import { mediaSize, renditionBitrate } from '../wire/item.ts';
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
  const fill = Buffer.alloc(4096);
  for (let i = 0; i < fill.length; i += 4) fill.writeUInt32LE(hash32(part, i), i);
  const out = Buffer.alloc(size, fill);
  magic.copy(out, 0, 0, Math.min(magic.length, size));
  return out;
}

const MP4_MAGIC = Buffer.from('00000020667479706973366d00000200697366366d69736f32617663316d703431', 'hex');
const MP3_MAGIC = Buffer.from('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000');

/** Serves `bytes=a-b` ranges with 206, as CDNs do; anything unparsable gets the whole file. */
function withRange(req: PlatformRequest, body: Buffer, contentType: string): Reply {
  const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''));
  const base = { 'content-type': contentType, 'accept-ranges': 'bytes' };
  if (!range || (range[1] === '' && range[2] === '')) return { status: 200, headers: base, body };
  const start = range[1] === '' ? Math.max(0, body.length - Number(range[2])) : Number(range[1]);
  const end = range[1] === '' || range[2] === '' ? body.length - 1 : Math.min(Number(range[2]), body.length - 1);
  if (start >= body.length || start > end) {
    return { status: 416, headers: { ...base, 'content-range': `bytes */${body.length}` }, body: '' };
  }
  return {
    status: 206,
    headers: { ...base, 'content-range': `bytes ${start}-${end}/${body.length}` },
    body: body.subarray(start, end + 1),
  };
}

function videoFile(req: PlatformRequest, itemId: string, gear: number): Reply {
  const video = req.ds.videos.byId(itemId);
  if (!video || !req.ds.videos.isVisible(video) || gear >= GEARS.length) return notFound();
  const size = mediaSize(video.duration, renditionBitrate(video, gear));
  return withRange(req, synthetic(size, MP4_MAGIC, video.index), 'video/mp4');
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
  return withRange(req, synthetic(240_000, MP3_MAGIC, Number(BigInt(key.id) % 1_000_000n)), 'audio/mpeg');
};

/** `/aweme/v1/play/`: the web host's redirector for video files and subtitles. */
export const playRedirector: Handler = (req) => {
  if (req.query.get('format') === 'webvtt') {
    const itemId = itemIdFromVideoIdString(req.query.get('video_id') ?? '');
    const language = SUBTITLE_LANGUAGES.findIndex((l) => l.code === req.query.get('language'));
    return itemId && language >= 0 ? subtitleFile(req, itemId, language) : notFound();
  }
  const itemId = req.query.get('item_id') ?? itemIdFromVideoIdString(req.query.get('video_id') ?? '');
  return itemId ? videoFile(req, itemId, DEFAULT_GEAR) : notFound();
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
