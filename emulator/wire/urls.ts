// CDN URL builders and their decoders. Every URL points at the emulator's own origin; the file
// key inside the path encodes what the file is, so the CDN handler can serve it without state.
import { bytesFrom, hash32, hexFrom } from '../prng.ts';

/** Per-request context for building bodies: where the client reached us, and the log id. */
export type WireContext = {
  origin: string;
  logid: string;
  nowSeconds: number;
  /** Lifetime of the CDN links handed out (`expire`); the platform's is two days. */
  mediaUrlTtlSeconds?: number;
};

/** The platform's CDN links live two days. */
export const MEDIA_URL_TTL_SECONDS = 172_800;

export const FILE_KIND = { video: 1, audio: 2, subtitle: 3 } as const;
export type FileKind = (typeof FILE_KIND)[keyof typeof FILE_KIND];
export type FileKey = { kind: FileKind; id: string; slot: number };

/** Renditions as in the 2025 post-list sample (PLATFORM.md §5.4): gear, codec, quality, size. */
export const GEARS = [
  { name: 'adapt_lowest_1080_1', codec: 'h265_hvc1', key: 'bytevc1', quality: 2, short: 1080, factor: 2.2 },
  { name: 'adapt_lower_720_1', codec: 'h265_hvc1', key: 'bytevc1', quality: 14, short: 720, factor: 1.05 },
  { name: 'normal_540_0', codec: 'h264', key: 'h264', quality: 20, short: 576, factor: 1 },
  { name: 'adapt_540_1', codec: 'h265_hvc1', key: 'bytevc1', quality: 28, short: 576, factor: 0.85 },
  { name: 'lowest_540_0', codec: 'h264', key: 'h264', quality: 25, short: 576, factor: 0.4 },
] as const;
/** `playAddr`/`downloadAddr` use the normal_540_0 rendition, as in the sample. */
export const DEFAULT_GEAR = 2;

export function encodeFileKey(key: FileKey): string {
  const bytes = Buffer.alloc(15);
  bytes[0] = key.kind;
  bytes.writeBigUInt64BE(BigInt(key.id), 1);
  bytes[9] = key.slot;
  bytesFrom(5, hash32(Number(BigInt(key.id) & 0xffffffffn), key.kind, key.slot)).copy(bytes, 10);
  return 'o' + bytes.toString('base64url');
}

export function decodeFileKey(text: string): FileKey | undefined {
  if (!/^o[A-Za-z0-9_-]{20}$/.test(text)) return undefined;
  const bytes = Buffer.from(text.slice(1), 'base64url');
  const kind = bytes[0];
  if (kind !== 1 && kind !== 2 && kind !== 3) return undefined;
  return { kind, id: bytes.readBigUInt64BE(1).toString(), slot: bytes[9] };
}

/** `video.videoID`: like the platform's `v14044g50000…`, but the item id is readable from it. */
export function videoIdString(id: string): string {
  return 'v14044g50000' + BigInt(id).toString(16).padStart(16, '0') + hexFrom(4, hash32(Number(BigInt(id) % 1000003n)));
}

export function itemIdFromVideoIdString(videoId: string): string | undefined {
  const m = /^v14044g50000([0-9a-f]{16})[0-9a-f]{4}$/.exec(videoId);
  return m ? BigInt('0x' + m[1]).toString() : undefined;
}

function signature(...parts: number[]): string {
  return hexFrom(32, ...parts);
}

export function mediaQuery(ctx: WireContext, mime: string, seedPart: number, expire: number): string {
  return (
    `a=1988&bti=ODszNWYuMDE6&ch=0&cr=3&dr=0&lr=all&cd=0%7C0%7C0%7C&cv=1&br=790&bt=395&cs=0&ds=6` +
    `&ft=4KJMyMZj8Zmo0UE0MI4jV~bCQpWrKsd.&mime_type=${mime}&qs=0&rc=${hexFrom(24, seedPart, 7)}` +
    `&btag=e000b8000&expire=${expire}&l=${ctx.logid}&ply_type=2&policy=2&signature=${signature(seedPart, expire)}` +
    `&tk=tt_chain_token`
  );
}

/** When a CDN link handed out now stops working (`expire`, unix seconds). */
export function mediaExpiry(ctx: WireContext): number {
  return ctx.nowSeconds + (ctx.mediaUrlTtlSeconds ?? MEDIA_URL_TTL_SECONDS);
}

/** The number a file's `rc` and `signature` derive from. */
function seedPartOf(key: FileKey): number {
  if (key.kind === FILE_KIND.video) return hash32(key.slot, key.id.length, Number(key.id.slice(-6)));
  if (key.kind === FILE_KIND.audio) return Number(key.id.slice(-6));
  return hash32(key.slot, Number(key.id.slice(-6)));
}

/**
 * A keyed CDN link is honoured until its `expire`, and only with the `signature` issued for that
 * file and that expiry: an edited `expire` is refused like an expired one (the platform's 403).
 */
export function keyedLinkValid(key: FileKey, query: URLSearchParams, nowSeconds: number): boolean {
  const expire = query.get('expire') ?? '';
  if (!/^\d{1,12}$/.test(expire) || Number(expire) <= nowSeconds) return false;
  return query.get('signature') === signature(seedPartOf(key), Number(expire));
}

export function videoFileUrl(ctx: WireContext, id: string, gear: number): string {
  const fileKey = { kind: FILE_KIND.video, id, slot: gear } as const;
  return `${ctx.origin}/video/tos/useast5/tos-useast5-pve-0068c001/${encodeFileKey(fileKey)}/?${mediaQuery(ctx, 'video_mp4', seedPartOf(fileKey), mediaExpiry(ctx))}`;
}

/** `file_id` names the rendition, as on the platform: the redirector serves that very file. */
export function playFileId(id: string, gear: number): string {
  return gear === DEFAULT_GEAR ? hexFrom(32, Number(id.slice(-8))) : hexFrom(32, Number(id.slice(-8)), gear);
}

/** The rendition a redirector `file_id` names (the default one when it names none). */
export function gearOfFileId(id: string, fileId: string | null): number {
  const gear = GEARS.findIndex((_, g) => playFileId(id, g) === fileId);
  return gear < 0 ? DEFAULT_GEAR : gear;
}

export function playRedirectUrl(ctx: WireContext, id: string, gear = DEFAULT_GEAR): string {
  return (
    `${ctx.origin}/aweme/v1/play/?faid=1988&file_id=${playFileId(id, gear)}&is_play_url=1` +
    `&item_id=${id}&line=0&ply_type=2&signaturev3=${Buffer.from(hexFrom(32, Number(id.slice(-7)))).toString('base64')}` +
    `&tk=tt_chain_token&video_id=${videoIdString(id)}`
  );
}

export function audioFileUrl(ctx: WireContext, musicId: string): string {
  const fileKey = { kind: FILE_KIND.audio, id: musicId, slot: 0 } as const;
  return `${ctx.origin}/video/tos/useast5/tos-useast5-v-27dcd7c799-tx/${encodeFileKey(fileKey)}/?${mediaQuery(ctx, 'audio_mpeg', seedPartOf(fileKey), mediaExpiry(ctx))}`;
}

export function subtitleUrl(ctx: WireContext, id: string, language: number): string {
  const fileKey = { kind: FILE_KIND.subtitle, id, slot: language } as const;
  return `${ctx.origin}/subtitle/tos-useast5-pv-0068/${encodeFileKey(fileKey)}/?${mediaQuery(ctx, 'video_mp4', seedPartOf(fileKey), mediaExpiry(ctx))}`;
}

export function subtitleRedirectUrl(ctx: WireContext, id: string, languageCode: string, version: string): string {
  return (
    `${ctx.origin}/aweme/v1/play/?faid=1988&format=webvtt&is_play_url=1&language=${languageCode}&line=0` +
    `&signaturev3=${Buffer.from(hexFrom(32, Number(id.slice(-5)))).toString('base64')}` +
    `&source=SmartPlayerSubtitleRedirect&version=${encodeURIComponent(version)}&video_id=${videoIdString(id)}`
  );
}

function imageQuery(ctx: WireContext, part: number): string {
  const expires = ctx.nowSeconds - (ctx.nowSeconds % 3600) + 172_800;
  return (
    `dr=9636&refresh_token=${hexFrom(8, part, 1)}&x-expires=${expires}` +
    `&x-signature=${encodeURIComponent(Buffer.from(hexFrom(20, part, 2), 'hex').toString('base64'))}` +
    `&t=4d5b0474&ps=13740610&shp=81f88b70&shcp=43f4a2f9&idc=useast8`
  );
}

/** Covers: `kind` is origin, cover or dynamic; the name is stable per entity. */
export function coverUrl(ctx: WireContext, name: string, template: string): string {
  const part = hash32(name.length, ...Buffer.from(name.slice(-12)));
  return `${ctx.origin}/obj/tos-useast5-p-0068/${name}~tplv-${template}?${imageQuery(ctx, part)}`;
}

export function avatarUrl(ctx: WireContext, userId: string, size: number): string {
  const part = Number(BigInt(userId) % 1_000_000_007n);
  return `${ctx.origin}/obj/tos-useast5-avt-0068/${hexFrom(32, part)}~tplv-tiktokx-cropcenter:${size}:${size}.jpeg?${imageQuery(ctx, part + size)}`;
}

export function streamUrls(ctx: WireContext, streamId: string) {
  const expire = ctx.nowSeconds + 604_800;
  const sign = hexFrom(32, Number(streamId.slice(-8)), expire);
  const flv = (q: string) => `${ctx.origin}/stage/stream-${streamId}${q}.flv?expire=${expire}&sign=${sign}`;
  const hls = (q: string) => `${ctx.origin}/stage/stream-${streamId}${q}/index.m3u8?expire=${expire}&sign=${sign}`;
  return { flv, hls };
}
