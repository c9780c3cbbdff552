// What a platform handler receives and returns. Handlers build bodies as objects (JSON or the
// page's rehydration scope) so faults such as `changed_shape` can alter them before serializing.
import type { Dataset } from '../dataset/dataset.ts';
import type { WireContext } from '../wire/urls.ts';
import type { MediaBytes } from '../wire/media-bytes.ts';
import { camelBody, snakeBody } from '../wire/envelope.ts';

export type PlatformRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  cookies: Record<string, string>;
  ctx: WireContext;
  nowMs: number;
  ds: Dataset;
};

export type Reply = {
  status: number;
  headers: Record<string, string | string[]>;
  /** JSON body, serialized by the server. */
  json?: Record<string, unknown>;
  /** Rehydration scope of an HTML page, rendered by the server. */
  page?: { scope: Record<string, unknown>; title: string; script?: string };
  body?: string | Buffer;
  /** Bytes start..end (inclusive) of a generated file, streamed as the reader takes them. */
  stream?: { file: MediaBytes; start: number; end: number };
};

export type Handler = (req: PlatformRequest) => Reply;

export function jsonReply(json: Record<string, unknown>, status = 200): Reply {
  return { status, headers: {}, json };
}

export function camel(req: PlatformRequest, code: number, fields: Record<string, unknown> = {}): Reply {
  return jsonReply(camelBody(req.ctx.logid, req.nowMs, code, fields));
}

export function snake(req: PlatformRequest, code: number, fields: Record<string, unknown> = {}): Reply {
  return jsonReply(snakeBody(req.ctx.logid, req.nowMs, code, fields));
}

export function textReply(status: number, body: string | Buffer, contentType: string): Reply {
  return { status, headers: { 'content-type': contentType }, body };
}

/** Positive integer query parameter, `fallback` when absent, undefined when malformed. */
export function intParam(query: URLSearchParams, name: string, fallback: number): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw)) return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : undefined;
}
