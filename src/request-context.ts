// The request a piece of work belongs to, carried through async calls (AsyncLocalStorage), so every
// log line a REST or MCP request causes, platform calls included, names its request id.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export type RequestContext = {
  readonly requestId: string;
  /** Id of the request whose in-flight fetch this one joined (coalescing), when it joined one. */
  coalescedWith?: string;
  /** Platform requests made for this request, and the time spent in them (sent → body read), ms. */
  platform?: { requests: number; ms: number };
};

/** Counts one platform request of `ms` against the current request (none outside a request). */
export function notePlatformTime(ms: number): void {
  const context = storage.getStore();
  if (context === undefined) return;
  const platform = (context.platform ??= { requests: 0, ms: 0 });
  platform.requests += 1;
  platform.ms += ms;
}

/**
 * `Server-Timing` (W3C) of an answer: the time reelay took (`app`, from the request's arrival to
 * its answer being ready) and, when it asked the platform, how long the platform took (`platform`,
 * with the number of requests). A client or browser sees where the time of a slow answer went.
 */
export function serverTiming(context: RequestContext | undefined, appMs: number): string {
  const app = `app;dur=${appMs.toFixed(1)}`;
  const platform = context?.platform;
  if (platform === undefined) return app;
  return `${app}, platform;dur=${platform.ms.toFixed(1)};desc="${platform.requests} request${platform.requests === 1 ? '' : 's'}"`;
}

const storage = new AsyncLocalStorage<RequestContext>();
const CONTEXT = Symbol('reelay.requestContext');

/**
 * Marks a logger whose bindings already carry `requestId` (Fastify's request loggers), so the mixin
 * does not write the key twice. Pino children inherit it through their prototype.
 */
export const REQUEST_ID_BOUND = Symbol('reelay.requestIdBound');

export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

export function runInRequest<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** Pino `mixin`: the current request's id on every line, unless the logger binds it already. */
export function requestIdMixin(_merge: object, _level: number, logger?: object): Record<string, unknown> {
  const context = storage.getStore();
  // A new object each time: pino merges the line's own fields into what the mixin returns.
  if (context === undefined || (logger !== undefined && REQUEST_ID_BOUND in logger)) return {};
  return { requestId: context.requestId };
}

/** Request ids from a proxy are kept when they look like ids; anything else is replaced. */
export function requestIdOf(req: { headers: Record<string, string | string[] | undefined> }): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && /^[A-Za-z0-9._:-]{8,128}$/.test(incoming) ? incoming : randomUUID();
}

export function requestContextOf(request: FastifyRequest): RequestContext | undefined {
  return (request as unknown as { [CONTEXT]?: RequestContext })[CONTEXT];
}

/**
 * Runs each request of `app` in its own context and answers its id in `X-Request-Id`. Fastify
 * reads a request body in stream events, whose async context is the socket's, not the request's:
 * the context is entered again before validation, as @fastify/request-context does.
 */
export function installRequestContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const context: RequestContext = { requestId: request.id };
    (request as unknown as { [CONTEXT]: RequestContext })[CONTEXT] = context;
    reply.header('x-request-id', request.id);
    storage.run(context, done);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const context = requestContextOf(request);
    if (context === undefined) done();
    else storage.run(context, done);
  });
}
