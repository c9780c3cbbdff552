// REST adapter of the watch service: /v1/watches and its history (JSON, CSV or an SVG chart) and
// deliveries. Each call is authenticated and counted against the key's rate limit like the platform operations.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { rateLimitHeaders } from '../cache/rate-limit.ts';
import { toHistoryPage, type WatchService } from '../watches/service.ts';
import { snapshotsToCsv } from '../watches/csv.ts';
import { historyToSvg } from '../watches/chart.ts';
import { ownerOf } from '../watches/owner.ts';
import type { HttpDeps } from './server.ts';
import { authenticate } from './routes.ts';
import { CSV_REPRESENTATION, JSON_REPRESENTATION, negotiate, offeredTypes, SVG_REPRESENTATION, type Representation } from './negotiate.ts';

export type WatchRouteDeps = Pick<HttpDeps, 'keys' | 'rateLimiter' | 'config'> & { watches: WatchService };

async function caller(request: FastifyRequest, reply: FastifyReply, deps: WatchRouteDeps): Promise<string> {
  const key = await authenticate(request, reply, deps);
  const decision = await deps.rateLimiter.consume(key.id);
  reply.headers(rateLimitHeaders(decision, { windowSeconds: deps.config.rateLimit.durationSeconds, name: 'per-key' }));
  if (!decision.allowed) throw new AppError('rate_limited', 'This API key sent too many requests; retry later.', { retryAfterSeconds: decision.resetSeconds });
  reply.header('cache-control', 'no-store');
  return ownerOf(key);
}

const FORMATS: Record<string, Representation> = { json: JSON_REPRESENTATION, csv: CSV_REPRESENTATION, svg: SVG_REPRESENTATION };

/**
 * JSON, CSV or the SVG chart: `?format=` wins (links that cannot set headers), else the Accept
 * header. Nothing acceptable is a 406 naming what is available.
 */
function historyRepresentation(request: FastifyRequest, format: string | undefined): Representation {
  if (format !== undefined) {
    const chosen = Object.hasOwn(FORMATS, format) ? FORMATS[format] : undefined;
    if (!chosen) throw new AppError('invalid_request', 'format must be json, csv or svg.', { details: { params: [{ name: 'format', reason: 'unknown format' }] } });
    return chosen;
  }
  const chosen = negotiate(request.headers.accept, 'history');
  if (chosen) return chosen;
  const available = offeredTypes('history');
  throw new AppError('not_acceptable', `No representation matches the Accept header; available: ${available.join(', ')}.`, { details: { available } });
}

type Params = { id: string; deliveryId: string };
type Query = Record<string, string | undefined>;

export function registerWatchRoutes(app: FastifyInstance, deps: WatchRouteDeps): void {
  const { watches } = deps;
  const base = deps.config.publicUrl;
  app.post('/v1/watches', async (request, reply) => {
    const owner = await caller(request, reply, deps);
    const watch = await watches.create(owner, request.body ?? {});
    reply.code(201).header('location', `${base}/v1/watches/${watch.id}`);
    return { data: watch };
  });
  app.get('/v1/watches', async (request, reply) => ({ data: await watches.list(await caller(request, reply, deps)) }));
  app.get<{ Params: Params }>('/v1/watches/:id', async (request, reply) => ({
    data: await watches.get(await caller(request, reply, deps), request.params.id),
  }));
  app.patch<{ Params: Params }>('/v1/watches/:id', async (request, reply) => {
    const owner = await caller(request, reply, deps);
    return { data: await watches.update(owner, request.params.id, request.body ?? {}) };
  });
  app.delete<{ Params: Params }>('/v1/watches/:id', async (request, reply) => {
    await watches.remove(await caller(request, reply, deps), request.params.id);
    return reply.code(204).send();
  });
  app.get<{ Params: Params; Querystring: Query }>('/v1/watches/:id/history', async (request, reply) => {
    const owner = await caller(request, reply, deps);
    const { format, ...query } = request.query;
    const representation = historyRepresentation(request, format);
    const history = await watches.history(owner, request.params.id, query);
    reply.header('vary', 'Authorization, Accept');
    if (representation.name === 'csv') {
      return reply.type(representation.contentType).header('content-disposition', `attachment; filename="${history.watch.id}.csv"`).send(snapshotsToCsv(history.points));
    }
    if (representation.name === 'svg') {
      // Opened on its own, an SVG is a document: it may load nothing and run nothing.
      return reply
        .type(representation.contentType)
        .header('content-disposition', `inline; filename="${history.watch.id}.svg"`)
        .header('content-security-policy', "default-src 'none'")
        .send(historyToSvg(history.watch, history.points));
    }
    return { data: toHistoryPage(base, history, query) };
  });
  app.get<{ Params: Params; Querystring: Query }>('/v1/watches/:id/deliveries', async (request, reply) => {
    const owner = await caller(request, reply, deps);
    return { data: await watches.deliveries(owner, request.params.id, request.query) };
  });
  app.post<{ Params: Params }>('/v1/watches/:id/deliveries/:deliveryId/redeliver', async (request, reply) => {
    const owner = await caller(request, reply, deps);
    const delivery = await watches.redeliver(owner, request.params.id, request.params.deliveryId);
    return reply.code(202).send({ data: delivery });
  });
}
