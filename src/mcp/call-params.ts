// A `tools/call` whose params are not `{ name: string, arguments?: object }` is the client's mistake:
// JSON-RPC −32602 with a sentence saying what is wrong, not the SDK's −32603 and a schema dump.

type RpcId = string | number;

function problemOf(params: unknown): string | undefined {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return 'tools/call needs params: an object with "name" and "arguments".';
  const { name, arguments: args } = params as Record<string, unknown>;
  if (typeof name !== 'string' || name === '') return 'tools/call needs params.name: the name of a tool from tools/list.';
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) return 'tools/call params.arguments must be an object of named arguments.';
  return undefined;
}

/** The JSON-RPC error answer for a malformed single `tools/call` request, or undefined. */
export function invalidToolCall(body: unknown): { jsonrpc: '2.0'; id: RpcId; error: { code: number; message: string } } | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const message = body as Record<string, unknown>;
  if (message.jsonrpc !== '2.0' || message.method !== 'tools/call') return undefined;
  if (typeof message.id !== 'string' && typeof message.id !== 'number') return undefined;
  const problem = problemOf(message.params);
  return problem === undefined ? undefined : { jsonrpc: '2.0', id: message.id, error: { code: -32602, message: problem } };
}
