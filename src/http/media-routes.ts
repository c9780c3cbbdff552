// REST routes of media downloads: GET/HEAD …/media streams a video's file (Range, byte budget,
// problems of the video operation), POST …/media-links hands out a signed link that needs no key.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { AS_NAMESPACE } from '../activitystreams/index.ts';
import { closedEarlySignal, runWithDeadline } from '../operations/deadline.ts';
import { videoId } from '../operations/params.ts';
import { rateLimitHeaders } from '../cache/rate-limit.ts';
import type { ByteBudget, BudgetDecision } from '../media/budget.ts';
import { DEFAULT_FORMAT, FORMAT_PATTERN } from '../media/formats.ts';
import type { MediaLinks } from '../media/links.ts';
import { completeLength, singleByteRange } from '../media/range.ts';
import type { MediaService, OpenedMedia } from '../media/service.ts';
import { authenticate } from './routes.ts';
import { sendProblem, socialNsUrl, type HttpDeps } from './server.ts';

export type MediaRouteDeps = { service: MediaService; links: MediaLinks; budget: ByteBudget };

export const MEDIA_PATH = '/v1/platform/videos/:videoId/media';
export const MEDIA_LINKS_PATH = '/v1/platform/videos/:videoId/media-links';

const format = z.string().regex(FORMAT_PATTERN, 'format is a name of 1-64 letters, digits, "_", "." or "-"');
const mediaInput = z.object({ videoId, format: format.optional(), link: z.string().min(1).max(512).optional() }).strict();
const linkInput = z.object({ videoId, format: format.optional(), ttlSeconds: z.number().int().min(1).optional() }).strict();

function parse<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const params = result.error.issues.map((issue) => ({
    name: issue.path.length > 0 ? issue.path.join('.') : '(input)',
    reason: issue.code === 'unrecognized_keys' ? `unknown parameter(s): ${issue.keys.join(', ')}` : issue.message,
  }));
  throw new AppError('invalid_request', `Invalid parameters: ${params.map((p) => `${p.name}: ${p.reason}`).join('; ')}`, { details: { params } });
}

/** The key's request limit, as every operation applies it. */
async function limitRequests(keyId: string, reply: FastifyReply, deps: HttpDeps): Promise<{ RateLimit: string; 'RateLimit-Policy': string }> {
  const decision = await deps.rateLimiter.consume(keyId);
  const headers = rateLimitHeaders(decision, { windowSeconds: deps.config.rateLimit.durationSeconds, name: 'per-key' });
  reply.headers(headers);
  if (!decision.allowed) throw new AppError('rate_limited', 'This API key sent too many requests; retry later.', { retryAfterSeconds: decision.resetSeconds });
  return headers;
}

/** Both policies in one RateLimit field list (draft-ietf-httpapi-ratelimit-headers §3). */
function withBudgetHeaders(reply: FastifyReply, requests: { RateLimit: string; 'RateLimit-Policy': string }, budget: BudgetDecision, windowSeconds: number): void {
  const bytes = rateLimitHeaders(budget, { windowSeconds, name: 'media-bytes' });
  reply.header('ratelimit', `${requests.RateLimit}, ${bytes.RateLimit}`);
  reply.header('ratelimit-policy', `${requests['RateLimit-Policy']}, ${bytes['RateLimit-Policy']}`);
}

const EXTENSIONS: Record<string, string> = { 'video/mp4': 'mp4', 'audio/mpeg': 'mp3', 'audio/mp4': 'm4a', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/avif': 'avif' };

function filenameOf(id: string, opened: OpenedMedia, contentType: string): string {
  const ext = EXTENSIONS[contentType.split(';')[0].trim().toLowerCase()] ?? 'bin';
  return `${id}-${opened.choice.name.replace(/[^A-Za-z0-9_.-]/g, '_')}.${ext}`;
}

/** Streams the body with backpressure; when the client leaves, the CDN transfer stops too. */
function streamBody(opened: OpenedMedia, reply: FastifyReply, settle: (sentBytes: number) => void): Readable {
  const body = opened.response.body!;
  let sent = 0;
  const source = Readable.from(
    (async function* () {
      for await (const chunk of body) {
        sent += chunk.length;
        yield chunk;
      }
    })(),
    { objectMode: false, highWaterMark: 64 * 1024 },
  );
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) {
      source.destroy();
      opened.response.abort();
    }
    settle(sent);
  });
  return source;
}

async function serveMedia(request: FastifyRequest, reply: FastifyReply, deps: HttpDeps, media: MediaRouteDeps) {
  const input = parse(mediaInput, { ...(request.query as object), ...(request.params as object) });
  const name = input.format ?? DEFAULT_FORMAT;
  const keyId = input.link !== undefined
    ? (await media.links.verify({ videoId: input.videoId, format: name, link: input.link })).keyId
    : (await authenticate(request, reply, deps)).id;
  const requestLimit = await limitRequests(keyId, reply, deps);
  deps.usage?.record(keyId, 'media');
  const method = request.method === 'HEAD' ? 'HEAD' : 'GET';
  const clientGone = closedEarlySignal(reply.raw);
  const opened = await runWithDeadline(
    deps.config.requestDeadlineMs,
    (signal) => media.service.open({ videoId: input.videoId, format: name, range: singleByteRange(request.headers.range), method }, signal, clientGone),
    clientGone,
  );
  const { response } = opened;
  if (response.status === 416) {
    response.abort();
    const size = completeLength(response.headers.get('content-range'));
    if (size !== undefined) reply.header('content-range', `bytes */${size}`);
    throw new AppError('range_not_satisfiable', 'The range lies outside the file.', { details: size === undefined ? {} : { size } });
  }
  const lengthText = response.headers.get('content-length');
  const length = lengthText !== null && /^\d+$/.test(lengthText) ? Number(lengthText) : undefined;
  let reserved = 0;
  if (method === 'GET' && length !== undefined) {
    const decision = await media.budget.reserve(keyId, length);
    withBudgetHeaders(reply, requestLimit, decision, media.budget.windowSeconds);
    if (!decision.allowed) {
      response.abort();
      throw new AppError('rate_limited', 'This API key has used its media byte budget for now; retry later or ask for a smaller range.', {
        retryAfterSeconds: decision.resetSeconds,
        details: { budget: 'media-bytes', limitBytes: decision.limit, remainingBytes: decision.remaining, requestedBytes: length },
      });
    }
    reserved = length;
  }
  const contentType = response.headers.get('content-type') ?? opened.choice.mediaType;
  reply
    .code(response.status)
    .header('content-type', contentType)
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `inline; filename="${filenameOf(input.videoId, opened, contentType)}"`);
  if (length !== undefined) reply.header('content-length', String(length));
  const contentRange = response.headers.get('content-range');
  if (response.status === 206 && contentRange) reply.header('content-range', contentRange);
  // A signed link is meant for pages of other origins (<video src>).
  if (input.link !== undefined) reply.header('cross-origin-resource-policy', 'cross-origin');
  if (method === 'HEAD' || !response.body) {
    response.abort();
    return reply.send();
  }
  return reply.send(
    streamBody(opened, reply, (sent) => {
      if (reserved > 0) void media.budget.refund(keyId, reserved - Math.min(sent, reserved));
      else void media.budget.charge(keyId, sent);
    }),
  );
}

async function issueLink(request: FastifyRequest, reply: FastifyReply, deps: HttpDeps, media: MediaRouteDeps) {
  const key = await authenticate(request, reply, deps);
  await limitRequests(key.id, reply, deps);
  const body = request.body === undefined || request.body === null ? {} : request.body;
  if (typeof body !== 'object' || Array.isArray(body)) throw new AppError('invalid_request', 'The body must be a JSON object.');
  const input = parse(linkInput, { ...(request.query as object), ...(body as object), ...(request.params as object) });
  const maxTtl = deps.config.mediaLinkTtlSeconds;
  if (input.ttlSeconds !== undefined && input.ttlSeconds > maxTtl) {
    throw new AppError('invalid_request', `ttlSeconds may be at most ${maxTtl}.`, { details: { params: [{ name: 'ttlSeconds', reason: `at most ${maxTtl}` }] } });
  }
  const name = input.format ?? DEFAULT_FORMAT;
  deps.usage?.record(key.id, 'mediaLink');
  // Resolving now turns an unknown format, a private or a removed video into the problem at once.
  const choice = await runWithDeadline(deps.config.requestDeadlineMs, (signal) => media.service.resolve(input.videoId, name, signal), closedEarlySignal(reply.raw));
  const link = media.links.issue({ videoId: input.videoId, format: name, keyId: key.id, ttlSeconds: input.ttlSeconds ?? maxTtl });
  reply.header('cache-control', 'no-store');
  return reply.type('application/json; charset=utf-8').send({
    data: {
      '@context': [AS_NAMESPACE, socialNsUrl(deps.config.publicUrl)],
      type: 'Link',
      href: link.href,
      name,
      mediaType: choice.mediaType,
      expires: new Date(link.expiresAtMs).toISOString(),
    },
  });
}

function refuseOthers(app: FastifyInstance, url: string, allowed: string[], deps: HttpDeps): void {
  const all = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
  app.route({
    method: all.filter((m) => !allowed.includes(m)) as never,
    url,
    handler: (request, reply) => {
      reply.header('allow', allowed.join(', '));
      return sendProblem(reply, request, new AppError('method_not_allowed', `${request.method} is not allowed here; use ${allowed.join(' or ')}.`), deps.config.publicUrl);
    },
  });
}

export function registerMediaRoutes(app: FastifyInstance, deps: HttpDeps, media: MediaRouteDeps): void {
  app.route({ method: ['GET', 'HEAD'], url: MEDIA_PATH, handler: (request, reply) => serveMedia(request, reply, deps, media) });
  app.route({ method: 'POST', url: MEDIA_LINKS_PATH, handler: (request, reply) => issueLink(request, reply, deps, media) });
  refuseOthers(app, MEDIA_PATH, ['GET', 'HEAD'], deps);
  refuseOthers(app, MEDIA_LINKS_PATH, ['POST'], deps);
}
