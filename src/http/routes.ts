// REST routes generated from the operation registry: authentication, per-key rate limit,
// validation, cached execution, conditional requests, and the `{"data": ...}` envelope.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import type { Operation, OperationResult, ProjectionPreset } from '../operations/types.ts';
import type { ApiKeyRecord } from '../storage/types.ts';
import type { HttpDeps } from './server.ts';
import { rateLimitHeaders, type RateLimitResult } from '../cache/rate-limit.ts';
import { sendProblem } from './server.ts';
import { closedEarlySignal, runWithDeadline } from '../operations/deadline.ts';
import { JSON_REPRESENTATION, negotiate, offeredTypes, VTT_REPRESENTATION, type Representation } from './negotiate.ts';
import { requestContextOf, serverTiming } from '../request-context.ts';

export type RateLimiter = { consume(key: string): Promise<RateLimitResult> };
export type UsageRecorder = { record(keyId: string, operation: string): void };

const ENVELOPE_OPEN = Buffer.from('{"data":');
const ENVELOPE_CLOSE = Buffer.from('}');

/** `Authorization: Bearer <key>`; keys never travel in the query string. 401s carry a challenge (RFC 6750 §3). */
export async function authenticate(request: FastifyRequest, reply: FastifyReply, deps: Pick<HttpDeps, 'keys'>): Promise<ApiKeyRecord> {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer[ ]+(\S+)\s*$/i.exec(header) : null;
  if (!match) {
    reply.header('www-authenticate', 'Bearer realm="reelay"');
    throw new AppError('unauthorized', 'Send an API key as "Authorization: Bearer <key>".');
  }
  const record = await deps.keys.authenticate(match[1]);
  if (!record) {
    reply.header('www-authenticate', 'Bearer realm="reelay", error="invalid_token"');
    throw new AppError('unauthorized', 'The API key is unknown, revoked or expired.');
  }
  return record;
}

function cacheStatusHeader(result: OperationResult): string {
  if (result.cacheStatus === 'hit') return `reelay; hit; ttl=${result.maxAgeSeconds}`;
  if (result.cacheStatus === 'stale') return 'reelay; hit; fwd=stale';
  return 'reelay; fwd=uri-miss; stored';
}

function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => bare(tag) === bare(etag));
}

/**
 * The representation to answer: `?format=vtt|json` on transcripts wins (links that cannot set
 * headers), else the Accept header. Nothing acceptable is a 406 naming what is available.
 */
function chooseRepresentation(op: Operation, request: FastifyRequest, input: Record<string, unknown>): Representation {
  const set = op.name === 'transcript' ? 'transcript' : 'json';
  if (input.format === 'vtt') return VTT_REPRESENTATION;
  const accept = request.headers.accept;
  const chosen = negotiate(accept, input.format === 'json' ? 'json' : set);
  if (chosen) return chosen;
  if (input.format === 'json') return JSON_REPRESENTATION;
  throw new AppError('not_acceptable', `No representation matches the Accept header; available: ${offeredTypes(set).join(', ')}.`, {
    details: { available: offeredTypes(set) },
  });
}

/** One validator per representation: presets and media types other than JSON get their own suffix. */
function etagFor(etag: string, preset: ProjectionPreset, representation: Representation): string {
  if (preset === 'full' && representation.etagSuffix === '') return etag;
  return `${etag.slice(0, -1)}${preset === 'full' ? '' : `-${preset}`}${representation.etagSuffix}"`;
}

async function handle(op: Operation, request: FastifyRequest, reply: FastifyReply, deps: HttpDeps) {
  const key = await authenticate(request, reply, deps);
  const decision = await deps.rateLimiter.consume(key.id);
  reply.headers(rateLimitHeaders(decision, { windowSeconds: deps.config.rateLimit.durationSeconds, name: 'per-key' }));
  if (!decision.allowed) {
    throw new AppError('rate_limited', 'This API key sent too many requests; retry later.', {
      retryAfterSeconds: decision.resetSeconds,
    });
  }
  const raw = { ...(request.query as Record<string, unknown>), ...(request.params as Record<string, unknown>) };
  const input = deps.executor.parse(op, raw) as Record<string, unknown>;
  const representation = chooseRepresentation(op, request, input);
  deps.usage?.record(key.id, op.name);
  const result = await runWithDeadline(
    deps.config.requestDeadlineMs,
    (signal) => deps.executor.execute(op, input, { signal }),
    closedEarlySignal(reply.raw),
  );
  const preset = (input.projection_preset as ProjectionPreset | undefined) ?? 'full';
  const etag = etagFor(result.etag, preset, representation);
  reply
    .header('etag', etag)
    .header('cache-control', `private, max-age=${result.maxAgeSeconds}`)
    .header('age', String(result.ageSeconds))
    .header('cache-status', cacheStatusHeader(result))
    .header('vary', 'Authorization, Accept')
    .header('server-timing', serverTiming(requestContextOf(request), reply.elapsedTime));
  if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  if (representation === VTT_REPRESENTATION) {
    const document = JSON.parse(result.body.toString('utf8')) as { content: string };
    return reply.type(representation.contentType).send(document.content);
  }
  // The JSON family shares the stored bytes: only Content-Type (and the ETag) differ.
  const body = preset === 'full' ? result.envelope : Buffer.concat([ENVELOPE_OPEN, deps.executor.render(result, preset), ENVELOPE_CLOSE]);
  return reply.type(representation.contentType).send(body);
}

export function registerOperationRoutes(app: FastifyInstance, deps: HttpDeps): void {
  for (const op of deps.operations) {
    for (const url of [op.path, ...(op.aliases ?? [])]) {
      app.route({
        method: ['GET', 'HEAD'],
        url,
        handler: (request, reply) => handle(op, request, reply, deps),
      });
      app.route({
        method: ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
        url,
        handler: (request, reply) => {
          reply.header('allow', 'GET, HEAD');
          return sendProblem(reply, request, new AppError('method_not_allowed', `${request.method} is not allowed here; use GET.`), deps.config.publicUrl);
        },
      });
    }
  }
}
