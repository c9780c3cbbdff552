// Stream qualities of a live room, read from where the platform puts them (PLATFORM.md §2.11): the
// SDK pull data (a JSON string per room, a JSON string per quality) first, the legacy pull-URL maps
// of `webcast/room/info` only when the SDK data yields nothing. A malformed part is left out.
import { z } from 'zod';

/** One quality of a live stream; FLV and HLS of one quality share its codec, bitrate and size. */
export type LiveStream = {
  /** The platform's quality key: SDK `origin`, `uhd`, `hd`, `sd`, `ld`; legacy `FULL_HD1`, `HD1`, `SD2`, `SD1`. */
  quality: string;
  flv: string | undefined;
  hls: string | undefined;
  codec: string | undefined;
  /** Bits per second. */
  bitrate: number | undefined;
  width: number | undefined;
  height: number | undefined;
};

/** YTDLP's order, worst to best; the platform spells its top legacy key "ORIGION". */
const QUALITY_ORDER = ['SD1', 'ld', 'SD2', 'sd', 'HD1', 'hd', 'FULL_HD1', 'uhd', 'ORIGION', 'origin'];

/** The legacy single HLS URL has no quality key of its own. */
export const DEFAULT_QUALITY = 'default';

const httpUrl = z.string().regex(/^https?:\/\/\S+$/);
const optionalUrl = httpUrl.optional().catch(undefined);
const count = z
  .union([z.number(), z.string().regex(/^\d+$/)])
  .transform(Number)
  .pipe(z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER))
  .optional()
  .catch(undefined);

/** `sdk_params` (and the legacy `*_pull_url_params`): VCodec, vbitrate, resolution "WxH". */
const SdkParams = z.object({
  VCodec: z.string().min(1).optional().catch(undefined),
  vbitrate: count,
  resolution: z.string().optional().catch(undefined),
});

const QualityEntry = z.object({
  main: z.object({ flv: optionalUrl, hls: optionalUrl, sdk_params: z.unknown() }),
});

const Qualities = z.array(z.unknown()).catch([]);
const QualityOption = z.object({ sdk_key: z.string().min(1), level: z.number().optional().catch(undefined) });

const stringMap = z.record(z.string(), z.unknown()).optional().catch(undefined);

/** A viewer count as the platform sends it (number, or digits in older payloads); else undefined. */
export function readCount(value: unknown): number | undefined {
  return count.parse(value);
}

/**
 * `pull_data` of the api-live `liveRoom.streamData` or of room info's `live_core_sdk_data`:
 * `stream_data` is a JSON string `{"data":{"<quality>":{"main":{flv, hls, sdk_params}}}}` and
 * `options.qualities[]{sdk_key, level}` ranks keys YTDLP does not know.
 */
export function readSdkStreams(pullData: unknown): LiveStream[] {
  const pull = asRecord(pullData);
  const data = asRecord(asRecord(parseEmbedded(pull?.stream_data))?.data);
  if (!data) return [];
  const levels = new Map<string, number>();
  for (const option of Qualities.parse(asRecord(pull?.options)?.qualities)) {
    const parsed = QualityOption.safeParse(option);
    if (parsed.success && parsed.data.level !== undefined) levels.set(parsed.data.sdk_key, parsed.data.level);
  }
  const streams: LiveStream[] = [];
  for (const [quality, value] of Object.entries(data)) {
    const entry = QualityEntry.safeParse(value);
    if (!entry.success) continue;
    const { flv, hls, sdk_params } = entry.data.main;
    if (flv !== undefined || hls !== undefined) streams.push({ quality, flv, hls, ...readParams(sdk_params) });
  }
  return sortStreams(streams, levels);
}

/**
 * Room info's older places: `flv_pull_url` and `hls_pull_url_map` (quality key → URL),
 * `flv_pull_url_params` (quality key → JSON string), and one `hls_pull_url` with its
 * `hls_pull_url_params` JSON string, named "default" unless the map already holds it.
 */
export function readLegacyStreams(streamUrl: unknown): LiveStream[] {
  const su = asRecord(streamUrl);
  const flvMap = stringMap.parse(su?.flv_pull_url) ?? {};
  const hlsMap = stringMap.parse(su?.hls_pull_url_map) ?? {};
  const flvParams = stringMap.parse(su?.flv_pull_url_params) ?? {};
  const streams: LiveStream[] = [];
  for (const quality of new Set([...Object.keys(flvMap), ...Object.keys(hlsMap)])) {
    const flv = optionalUrl.parse(flvMap[quality]);
    const hls = optionalUrl.parse(hlsMap[quality]);
    if (flv !== undefined || hls !== undefined) streams.push({ quality, flv, hls, ...readParams(flvParams[quality]) });
  }
  const hls = optionalUrl.parse(su?.hls_pull_url);
  if (hls !== undefined && !streams.some((s) => s.hls === hls)) {
    streams.push({ quality: DEFAULT_QUALITY, flv: undefined, hls, ...readParams(su?.hls_pull_url_params) });
  }
  return sortStreams(streams, new Map());
}

/** Best first by YTDLP's order; keys it does not know follow, by the room's own level, then by name. */
function sortStreams(streams: LiveStream[], levels: Map<string, number>): LiveStream[] {
  const rank = (key: string) => QUALITY_ORDER.indexOf(key);
  return streams.sort(
    (a, b) =>
      rank(b.quality) - rank(a.quality) ||
      (levels.get(b.quality) ?? -1) - (levels.get(a.quality) ?? -1) ||
      (a.quality < b.quality ? -1 : a.quality > b.quality ? 1 : 0),
  );
}

function readParams(value: unknown): Pick<LiveStream, 'codec' | 'bitrate' | 'width' | 'height'> {
  const parsed = SdkParams.safeParse(parseEmbedded(value));
  if (!parsed.success) return { codec: undefined, bitrate: undefined, width: undefined, height: undefined };
  const size = /^(\d{1,5})x(\d{1,5})$/i.exec(parsed.data.resolution ?? '');
  return {
    codec: parsed.data.VCodec,
    bitrate: parsed.data.vbitrate,
    width: size ? Number(size[1]) : undefined,
    height: size ? Number(size[2]) : undefined,
  };
}

/** The platform embeds JSON as strings; an object is taken as is, anything unparsable is absent. */
function parseEmbedded(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
