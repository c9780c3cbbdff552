// The hot path of the tool server: a single `tools/call` request answered from the invoker's
// serialised result (memoised per answer and preset), the JSON-RPC envelope written around those
// bytes without re-serialising or even copying them. It answers exactly what the SDK's stateless
// JSON transport would; anything else goes to the SDK.
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyRequest } from 'fastify';
import type { ApiKeyRecord } from '../storage/types.ts';
import { normaliseAccept } from './protocol.ts';
import type { ToolInvoker } from './tools.ts';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The request's id and tool call when the fast path may answer it; undefined sends it to the SDK. */
function fastCallOf(request: FastifyRequest, body: unknown) {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  const { id, params } = body;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)))) return undefined;
  // Progress tokens and other _meta requests are the SDK's business.
  if (!isPlainObject(params) || typeof params.name !== 'string' || '_meta' in params) return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  const version = request.headers['mcp-protocol-version'];
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) return undefined;
  if (!normaliseAccept(request.headers.accept).includes('application/json')) return undefined;
  return { id, name: params.name, args: params.arguments as Record<string, unknown> | undefined };
}

const RESULT_OPEN = Buffer.from('{"result":');

/**
 * The JSON-RPC response of a fast-path call as consecutive chunks (to be written in order, never
 * concatenated: the result is a memoised buffer of up to several hundred KB shared by every call
 * of the same answer), or undefined when the SDK must answer.
 */
export async function tryFastToolCall(
  request: FastifyRequest,
  body: unknown,
  invoke: ToolInvoker,
  key: ApiKeyRecord,
  clientGone?: AbortSignal,
): Promise<Buffer[] | undefined> {
  const call = fastCallOf(request, body);
  if (!call) return undefined;
  let result: Buffer | undefined;
  try {
    result = await invoke(call.name, call.args, key, clientGone);
  } catch (error) {
    const { code, message } = error as { code?: number; message: string };
    return [Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: code ?? -32603, message } }))];
  }
  if (!result) return undefined;
  return [RESULT_OPEN, result, Buffer.from(`,"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`)];
}
