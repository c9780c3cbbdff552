// REST adapter of the watch service: /v1/watches and its history and deliveries. Each call is
// authenticated and counted against the key's rate limit like the platform operations.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { rateLimitHeaders } from '../cache/rate-limit.ts';
import { toHistoryPage, type WatchService } from '../watches/service.ts';
import { snapshotsToCsv } from '../watches/csv.ts';
import { ownerOf } from '../watches/owner.ts';
import type { HttpDeps } from './server.ts';
import { authenticate } from './routes.ts';

export type WatchRouteDeps = Pick<HttpDeps, 'keys' | 'rateLimiter' | 'config'> & { watches: WatchService };

async function caller(request: FastifyRequest, reply: FastifyReply, deps: WatchRouteDeps): Promise<string> {
  const key = await authenticate(request, reply, deps);
  const decision = await deps.rateLimiter.consume(key.id);
  reply.headers(rateLimitHeaders(decision, { windowSeconds: deps.config.rateLimit.durationSeconds, name: 'per-key' }));
  if (!decision.allowed) throw new AppError('rate_limited', 'This API key sent too many requests; retry later.', { retryAfterSeconds: decision.resetSeconds });
  reply.header('cache-control', 'no-store');
  return ownerOf(key);
}

/** CSV when the client asks for it (`Accept: text/csv` or `?format=csv`), JSON otherwise. */
function wantsCsv(request: FastifyRequest, format: string | undefined): boolean {
  if (format === 'csv') return true;
  if (format === 'json') return false;
  return /(^|,)\s*text\/csv/i.test(request.headers.accept ?? '');
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
    if (format !== undefined && format !== 'csv' && format !== 'json') {
      throw new AppError('invalid_request', 'format must be json or csv.', { details: { params: [{ name: 'format', reason: 'unknown format' }] } });
    }
    const history = await watches.history(owner, request.params.id, query);
    reply.header('vary', 'Authorization, Accept');
    if (wantsCsv(request, format)) {
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${history.watch.id}.csv"`).send(snapshotsToCsv(history.points));
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
