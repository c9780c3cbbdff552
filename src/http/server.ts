// The REST listener: Fastify with request ids, problem+json for every failure, and the
// registry's routes plus health, metrics, OpenAPI, docs and the JSON-LD context.
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { installRequestContext, requestContextOf, requestIdOf, REQUEST_ID_BOUND } from '../request-context.ts';
import type { Logger } from 'pino';
import { clientErrorHandler, guardConnections, type RawAnswer } from '../client-errors.ts';
import { AppError, isAppError, type ErrorCode } from '../errors.ts';
import { trustProxyOption, type Config } from '../config/config.ts';
import type { Executor } from '../operations/execute.ts';
import type { Operation } from '../operations/types.ts';
import type { ApiKeyRecord } from '../storage/types.ts';
import type { Metrics } from './metrics.ts';
import { toProblem } from './problem.ts';
import { registerOperationRoutes, type RateLimiter, type UsageRecorder } from './routes.ts';
import { buildOpenApi } from './openapi.ts';
import { registerMediaRoutes, type MediaRouteDeps } from './media-routes.ts';
import { registerDocsRoutes } from './docs-page.ts';
import { registerVocabularyRoute } from './vocabulary-page.ts';
import { socialContext } from '../activitystreams/index.ts';

export type Readiness = { database: 'ok' | 'down'; redis?: 'ok' | 'down' };

export type HttpDeps = {
  config: Config;
  executor: Executor;
  operations: readonly Operation[];
  keys: { authenticate(key: string): Promise<ApiKeyRecord | null> };
  rateLimiter: RateLimiter;
  usage: UsageRecorder | undefined;
  metrics: Metrics;
  /** Which backing stores answer now (`redis` absent when none is configured); bounded in time, never rejects. */
  ready(): Promise<Readiness>;
  logger: Logger;
  /** Media downloads and signed links (media-routes.ts); absent, those routes are not served. */
  media?: MediaRouteDeps;
};

/**
 * One log line per request, written when it completes: method, path (never the query string, where
 * a misdirected secret could travel), route, status and time. Halves logging cost on the hot path.
 * It stays at info for every status: a 4xx is the client's to fix, and the cause of a 5xx is
 * logged where it happens (platform failures at warn, faults in reelay at error).
 */
class RequestLogController extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'requestId' });
  }
  incomingRequest(): void {}
  requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      path: request.url.split('?')[0],
      route: request.routeOptions.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ...coalescedWith(request),
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/** The request whose platform fetch this one waited on, so its platform log lines can be found. */
function coalescedWith(request: FastifyRequest): { coalescedWith?: string } {
  const other = requestContextOf(request)?.coalescedWith;
  return other === undefined ? {} : { coalescedWith: other };
}

export function sendProblem(reply: FastifyReply, request: FastifyRequest, error: AppError, publicUrl: string): FastifyReply {
  const problem = toProblem(error, request.url.split('?')[0], request.id, publicUrl);
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
  return reply.code(problem.status).type('application/problem+json').send(JSON.stringify(problem));
}

/** A problem document for a connection that never became a request (no route, no request id of ours). */
function rawProblem(status: number, publicUrl: string): RawAnswer {
  const error =
    status === 405
      ? new AppError('method_not_allowed', 'CONNECT is not supported.')
      : status === 431
        ? new AppError('headers_too_large', 'The request headers are too large.')
        : new AppError('invalid_request', 'The request is not valid HTTP.');
  const problem = { ...toProblem(error, '', randomUUID(), publicUrl), status };
  return { contentType: 'application/problem+json', body: JSON.stringify(problem) };
}

/** Fastify's own errors (bad content type, huge body, bad URL) as reelay codes. */
function fromFrameworkError(error: { statusCode?: number; code?: string }): AppError | undefined {
  const byStatus: Record<number, [ErrorCode, string]> = {
    400: ['invalid_request', 'The request is malformed.'],
    404: ['not_found', 'No such resource.'],
    405: ['method_not_allowed', 'Method not allowed.'],
    406: ['not_acceptable', 'No acceptable representation.'],
    413: ['payload_too_large', 'The request body is too large.'],
    415: ['unsupported_media_type', 'Unsupported content type.'],
    431: ['headers_too_large', 'The request headers are too large.'],
  };
  const hit = error.statusCode !== undefined ? byStatus[error.statusCode] : undefined;
  return hit ? new AppError(hit[0], hit[1], { cause: error }) : undefined;
}

export function createHttpServer(deps: HttpDeps): FastifyInstance {
  const { config, metrics } = deps;
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    genReqId: requestIdOf,
    logController: new RequestLogController(),
    // Request loggers bind the id already; the log mixin then leaves it out (no duplicate key).
    childLoggerFactory: (logger, bindings, options) => Object.assign(logger.child(bindings, options), { [REQUEST_ID_BOUND]: true }),
    bodyLimit: 64 * 1024,
    return503OnClosing: true,
    ...(config.trustProxy === undefined ? {} : { trustProxy: trustProxyOption(config.trustProxy) }),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
    clientErrorHandler: clientErrorHandler((status) => rawProblem(status, config.publicUrl)),
    // Bad percent-encoding and over-long path parameters never reach a route: answer them here.
    frameworkErrors: (error, request, reply) =>
      sendProblem(reply, request, new AppError('invalid_request', 'The request path is malformed or too long.', { cause: error }), config.publicUrl),
  });
  guardConnections(app.server, (status) => rawProblem(status, config.publicUrl));

  installRequestContext(app);
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(route, reply.statusCode, reply.elapsedTime / 1000);
  });

  app.setErrorHandler((error, request, reply) => {
    const appError = isAppError(error) ? error : fromFrameworkError(error as { statusCode?: number });
    if (appError) return sendProblem(reply, request, appError, config.publicUrl);
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, request, new AppError('internal', 'An internal error occurred.'), config.publicUrl);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, request, new AppError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`), config.publicUrl),
  );

  registerOperationRoutes(app, deps);
  if (deps.media) registerMediaRoutes(app, deps, deps.media);

  app.get('/', async () => ({
    name: 'reelay',
    openapi: `${config.publicUrl}/openapi.json`,
    docs: `${config.publicUrl}/docs`,
    mcp: config.mcpPublicUrl,
  }));
  app.get('/healthz', async () => ({ status: 'ok' }));
  // Ready while the node can answer: without its database no API key can be checked (503); without
  // Redis it answers from its own memory, so it stays in rotation and says it is degraded.
  app.get('/readyz', async (request, reply) => {
    const stores = await deps.ready();
    reply.header('cache-control', 'no-store');
    if (stores.database === 'down') {
      return sendProblem(reply, request, new AppError('unavailable', 'The database is not reachable.', { details: { ...stores }, retryAfterSeconds: 5 }), config.publicUrl);
    }
    return { status: stores.redis === 'down' ? 'degraded' : 'ready', ...stores };
  });
  app.get('/metrics', async (_request, reply) => reply.type(metrics.contentType).send(await metrics.render()));
  const openapi = JSON.stringify(buildOpenApi(deps.operations, config));
  app.get('/openapi.json', async (_request, reply) => reply.type('application/json').send(openapi));
  registerDocsRoutes(app, config);
  registerVocabularyRoute(app);
  const context = JSON.stringify(socialContext());
  app.get('/ns/social', async (_request, reply) =>
    reply.type('application/ld+json').header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=86400').send(context),
  );
  return app;
}

/** `{social_ns_url}`: the JSON-LD context of reelay's own terms, served by the service itself. */
export function socialNsUrl(publicUrl: string): string {
  return `${publicUrl}/ns/social`;
}
