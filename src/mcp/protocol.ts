// One stateless MCP exchange: a fresh SDK server and Streamable HTTP transport per POST (no session,
// JSON responses), so any node can answer any call. Accept is normalised before the SDK sees it,
// because the service spec's bare JSON-RPC POST carries only Authorization and Content-Type.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeyRecord } from '../storage/types.ts';
import type { ToolCaller, ToolDefinition } from './tools.ts';

export const SERVER_VERSION = '0.1.0';
const BOTH = 'application/json, text/event-stream';

/** Missing, wildcard or one-sided Accept → both types (the SDK insists on both); anything else is kept. */
export function normaliseAccept(accept: string | undefined): string {
  if (!accept || !accept.trim()) return BOTH;
  const types = accept.split(',').map((part) => part.split(';')[0].trim().toLowerCase());
  const wanted = types.some((t) => t === '*/*' || t === 'application/*' || t === 'application/json' || t === 'text/event-stream');
  return wanted ? BOTH : accept;
}

export type ExchangeDeps = {
  serviceName: string;
  instructions: string;
  tools: ToolDefinition[];
  callTool: ToolCaller;
};

function createSdkServer(deps: ExchangeDeps, key: ApiKeyRecord): Server {
  const server = new Server(
    { name: deps.serviceName, title: deps.serviceName, version: SERVER_VERSION },
    { capabilities: { tools: { listChanged: false }, logging: {} }, instructions: deps.instructions },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: deps.tools }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) =>
    deps.callTool(req.params.name, req.params.arguments as Record<string, unknown> | undefined, key, extra.signal),
  );
  // Nothing is logged to clients, but accepting the level keeps clients that set it working.
  server.setRequestHandler(SetLevelRequestSchema, async () => ({}));
  return server;
}

function toWebRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  headers.set('accept', normaliseAccept(request.headers.accept));
  const url = `http://${request.headers.host ?? 'localhost'}${request.url}`;
  return new Request(url, { method: request.method, headers });
}

export async function runExchange(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: ExchangeDeps,
  key: ApiKeyRecord,
  parsedBody: unknown,
): Promise<FastifyReply> {
  const server = createSdkServer(deps, key);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(toWebRequest(request), { parsedBody });
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      if (name !== 'content-length') reply.header(name, value);
    });
    const text = await response.text();
    return reply.send(text === '' ? undefined : text);
  } finally {
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}
