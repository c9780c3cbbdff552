// The MCP tools, one per registry operation: listing (names, titles, descriptions, 2020-12 input
// schemas, read-only annotations) and calling (the same executor as REST, so structuredContent is
// exactly the REST `data` in the chosen preset, by default `full` as REST). Errors a model can
// react to are tool results.
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { AppError, toAppError } from '../errors.ts';
import type { Operation, ProjectionPreset } from '../operations/types.ts';
import type { ApiKeyRecord } from '../storage/types.ts';
import { DEFAULT_TOOL_PRESET, HIDDEN_TOOL_PARAMS, toToolInputSchema, toToolOutputSchema } from './tool-schema.ts';
import type { McpDeps } from './types.ts';
import { toolDescription } from './guidance.ts';
import { runWithDeadline } from '../operations/deadline.ts';

export const TOOL_ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;

export type ToolDefinition = {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: { [K in keyof typeof TOOL_ANNOTATIONS]: boolean } & { title: string };
};

export type ToolResult = {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent: Record<string, unknown>;
  isError?: boolean;
};

export function buildToolDefinitions(operations: readonly Operation[]): ToolDefinition[] {
  return operations.map((op) => ({
    name: op.tool,
    title: op.title,
    description: toolDescription(op),
    inputSchema: toToolInputSchema(op),
    outputSchema: toToolOutputSchema(op),
    annotations: { title: op.title, ...TOOL_ANNOTATIONS },
  }));
}

/** A CallToolResult as JSON bytes: the data once as structuredContent and once as text. */
function toolResultBytes(dataJson: Buffer, isError: boolean): Buffer {
  const text = JSON.stringify(dataJson.toString('utf8'));
  const tail = isError ? ',"isError":true}' : '}';
  return Buffer.concat([Buffer.from(`{"content":[{"type":"text","text":${text}}],"structuredContent":`), dataJson, Buffer.from(tail)]);
}

/** A JSON-RPC error the SDK sends as is (McpError would prefix its message with "MCP error <code>:"). */
function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

export type ToolCaller = (
  name: string,
  args: Record<string, unknown> | undefined,
  key: ApiKeyRecord,
  clientGone?: AbortSignal,
) => Promise<ToolResult>;

/**
 * A tool call's CallToolResult, already serialised; undefined when no such tool exists. The call
 * has the request deadline; `clientGone` aborts its work early when the client disconnects.
 */
export type ToolInvoker = (
  name: string,
  args: Record<string, unknown> | undefined,
  key: ApiKeyRecord,
  clientGone?: AbortSignal,
) => Promise<Buffer | undefined>;

const DEFAULT_DEADLINE_MS = 30_000;

export function createToolInvoker(
  deps: Pick<McpDeps, 'executor' | 'operations' | 'store' | 'logger' | 'clock' | 'usage' | 'rateLimiter'> & {
    config?: Pick<McpDeps['config'], 'requestDeadlineMs'>;
  },
): ToolInvoker {
  const deadlineMs = deps.config?.requestDeadlineMs ?? DEFAULT_DEADLINE_MS;
  const byTool = new Map(deps.operations.map((op) => [op.tool, op]));
  const clock = deps.clock ?? (() => new Date());

  return async function invoke(name, args, key, clientGone) {
    const op = byTool.get(name);
    if (!op) return undefined;
    try {
      const decision = await deps.rateLimiter?.consume(key.id);
      if (decision && !decision.allowed) {
        throw new AppError('rate_limited', 'This API key sent too many requests; retry later.', {
          retryAfterSeconds: decision.resetSeconds,
        });
      }
      const raw = { ...(args ?? {}) };
      for (const hidden of HIDDEN_TOOL_PARAMS) delete raw[hidden];
      const input = deps.executor.parse(op, raw) as { projection_preset?: ProjectionPreset };
      const preset = input.projection_preset ?? DEFAULT_TOOL_PRESET;
      const result = await runWithDeadline(deadlineMs, (signal) => deps.executor.execute(op, input, { signal }), clientGone);
      if (deps.usage) deps.usage.record(key.id, op.name);
      else {
        deps.store.addUsage(key.id, op.name, clock()).catch((err: unknown) => {
          deps.logger.warn({ err, keyPrefix: key.prefix }, 'usage not recorded');
        });
      }
      // Serialised once per answer and preset (memoised by the executor within the cache budget).
      return deps.executor.derive(result, preset, 'tool-result', (data) => toolResultBytes(data, false));
    } catch (err) {
      const appError = toAppError(err);
      if (appError.code === 'internal') {
        deps.logger.error({ err, tool: name, keyPrefix: key.prefix }, 'tool call failed');
        // JSON-RPC internal error with a generic message: internal text never crosses the wire.
        throw rpcError(ErrorCode.InternalError, 'Internal error');
      }
      const problem = { code: appError.code, message: appError.message, ...appError.details };
      return toolResultBytes(Buffer.from(JSON.stringify(problem)), true);
    }
  };
}

/** The SDK's tool handler: the invoker's bytes as an object; unknown tools are JSON-RPC errors. */
export function createToolCaller(invoke: ToolInvoker): ToolCaller {
  return async (name, args, key, clientGone) => {
    const bytes = await invoke(name, args, key, clientGone);
    if (!bytes) throw rpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    return JSON.parse(bytes.toString('utf8')) as ToolResult;
  };
}
