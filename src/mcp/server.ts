// The tool server's own Fastify listener: MCP Streamable HTTP at POST / (Bearer API keys), and the
// OAuth 2.1 authorization server on the same origin. The caller owns `.listen()` and `.close()`.
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import { clientErrorHandler, guardConnections, type RawAnswer } from '../client-errors.ts';
import { registerOAuthRoutes } from '../oauth/routes.ts';
import { toServerUrls } from '../oauth/urls.ts';
import { authenticateBearer } from './bearer.ts';
import { createGuard } from './guard.ts';
import { runExchange, type ExchangeDeps } from './protocol.ts';
import { buildToolDefinitions, createToolCaller, createToolInvoker, type ToolInvoker } from './tools.ts';
import { instructionsFor } from './guidance.ts';
import { createWatchToolInvoker, watchToolDefinitions } from './watch-tools.ts';
import { tryFastToolCall } from './fast-call.ts';
import { invalidToolCall } from './call-params.ts';
import type { McpDeps } from './types.ts';
import { closedEarlySignal } from '../operations/deadline.ts';
import { trustProxyOption } from '../config/config.ts';
import { isAppError } from '../errors.ts';
import { isConnectError } from '../storage/guard.ts';
import { installRequestContext, requestIdOf } from '../request-context.ts';

export type { McpConfig, McpDeps } from './types.ts';

/** Marks a body that claimed to be JSON but was not, so each route answers in its own error format. */
export const INVALID_JSON = Symbol('invalid-json');
const MCP_BODY_BYTES_MAX = 1024 * 1024;

/**
 * Writes a 200 JSON answer made of several buffers as one `writev`, without concatenating them
 * (Fastify's `send` takes one payload, which would copy a large memoised result on every call).
 * The reply's headers so far (CORS from the guard) are kept; the answer is the same on the wire as
 * `reply.type('application/json').send(Buffer.concat(chunks))`, including `Connection: close`
 * while the server is closing (see closeConnectionsWhileClosing in app.ts).
 */
function sendChunks(reply: FastifyReply, chunks: Buffer[], closing: boolean): FastifyReply {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const headers: OutgoingHttpHeaders = { ...(reply.getHeaders() as OutgoingHttpHeaders), 'content-type': 'application/json', 'content-length': length };
  if (closing) headers.connection = 'close';
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, headers);
  res.cork();
  for (let i = 0; i < chunks.length - 1; i++) res.write(chunks[i]);
  res.end(chunks[chunks.length - 1]);
  return reply;
}

/** What a connection that never became a request gets: a JSON-RPC error without an id. */
function rawJsonRpcError(status: number): RawAnswer {
  const message = status === 405 ? 'Method not allowed: use POST' : status === 431 ? 'Request headers too large' : 'Bad request';
  return { contentType: 'application/json', body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message }, id: null }) };
}

/** Platform tools first; a name they do not know may be a watch tool. */
function withWatchTools(invoke: ToolInvoker, deps: McpDeps): ToolInvoker {
  if (!deps.watches) return invoke;
  const watchTool = createWatchToolInvoker(deps.watches, deps.config.restBaseUrl);
  return async (name, args, key, clientGone) => (await invoke(name, args, key, clientGone)) ?? watchTool(name, args, key);
}

export function createMcpServer(deps: McpDeps): FastifyInstance {
  const urls = toServerUrls(deps.config.publicUrl);
  const app = Fastify({
    logger: false,
    genReqId: requestIdOf,
    bodyLimit: MCP_BODY_BYTES_MAX,
    // The client address of the OAuth registration limits: forwarded only through trusted proxies.
    ...(deps.config.trustProxy === undefined ? {} : { trustProxy: trustProxyOption(deps.config.trustProxy) }),
    return503OnClosing: true,
    clientErrorHandler: clientErrorHandler(rawJsonRpcError),
    // Malformed URLs and over-long parameters: the same answers as any other bad request here.
    frameworkErrors: (error, request, reply) => answerError(request.url, reply, { statusCode: 400, code: error.code }),
  });
  guardConnections(app.server, rawJsonRpcError);
  const invoke = withWatchTools(createToolInvoker(deps), deps);
  const exchange: ExchangeDeps = {
    serviceName: deps.config.serviceName,
    instructions: instructionsFor(deps.config.serviceName),
    tools: [...buildToolDefinitions(deps.operations), ...(deps.watches ? watchToolDefinitions() : [])],
    callTool: createToolCaller(invoke),
  };

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body: string, done) => {
    try {
      done(null, JSON.parse(body));
    } catch {
      done(null, { [INVALID_JSON]: true });
    }
  });
  // Other media types reach the handlers as text, so the MCP transport answers 415 in JSON-RPC form.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  // First hook: what a call logs (platform requests included) carries its request id.
  installRequestContext(app);
  app.addHook('onRequest', createGuard(deps.config));
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  /** JSON-RPC errors on the MCP endpoint, RFC 6749 bodies on the OAuth endpoints. */
  function answerError(url: string, reply: FastifyReply, err: { statusCode?: number; code?: string }) {
    // The database is down (an API key or OAuth record could not be read): a passing condition.
    if ((isAppError(err) && err.code === 'store_unavailable') || isConnectError(err)) {
      reply.code(503).header('retry-after', String((isAppError(err) ? err.retryAfterSeconds : undefined) ?? 5));
      if (url.split('?')[0] === '/') return reply.send({ jsonrpc: '2.0', error: { code: -32000, message: 'Service unavailable: retry shortly' }, id: null });
      return reply.send({ error: 'temporarily_unavailable', error_description: 'The service cannot reach its store; retry shortly.' });
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) deps.logger.error({ err, url: url.split('?')[0] }, 'tool server error');
    const message = status === 413 ? 'Request body too large' : status === 500 ? 'Internal error' : 'Bad request';
    if (url.split('?')[0] === '/') {
      const code = status === 500 ? -32603 : -32600;
      return reply.code(status).send({ jsonrpc: '2.0', error: { code, message }, id: null });
    }
    return reply.code(status).send({ error: status === 500 ? 'server_error' : 'invalid_request', error_description: message });
  }
  app.setErrorHandler((err: { statusCode?: number; code?: string }, request, reply) => answerError(request.url, reply, err));
  app.setNotFoundHandler((request, reply) => {
    if (request.url.split('?')[0] === '/') {
      return reply
        .code(405)
        .header('allow', 'POST')
        .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: use POST' }, id: null });
    }
    return reply.code(404).send({ error: 'not_found', error_description: 'No such endpoint on the tool server' });
  });

  app.post('/', async (request, reply) => {
    const auth = await authenticateBearer(request, reply, deps.keys, urls);
    if (!auth.ok) return reply;
    const body = request.body as Record<PropertyKey, unknown> | undefined;
    if (body && typeof body === 'object' && INVALID_JSON in body) {
      return reply.code(400).send({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: invalid JSON' }, id: null });
    }
    const malformed = invalidToolCall(request.body);
    if (malformed) return reply.code(200).type('application/json').send(malformed);
    const fast = await tryFastToolCall(request, request.body, invoke, auth.key, closedEarlySignal(reply.raw));
    if (fast) return sendChunks(reply, fast, closing);
    return runExchange(request, reply, exchange, auth.key, request.body);
  });

  // Stateless server: no standalone SSE stream and no session to delete (MCP transports: 405 allowed).
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/',
      handler: async (request, reply) => {
        const auth = await authenticateBearer(request, reply, deps.keys, urls);
        if (!auth.ok) return reply;
        return reply
          .code(405)
          .header('allow', 'POST')
          .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: use POST' }, id: null });
      },
    });
  }

  registerOAuthRoutes(app, deps, urls);
  return app;
}
