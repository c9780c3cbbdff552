// The MCP tools, one per registry operation: listing (names, titles, descriptions, 2020-12 input
// schemas, read-only annotations) and calling (the same executor as REST, so structuredContent is
// exactly the REST `data` in the chosen preset). Errors a model can react to are tool results.
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { AppError, toAppError } from '../errors.ts';
import type { Operation, ProjectionPreset } from '../operations/types.ts';
import type { ApiKeyRecord } from '../storage/types.ts';
import { DEFAULT_TOOL_PRESET, HIDDEN_TOOL_PARAMS, toToolInputSchema } from './tool-schema.ts';
import type { McpDeps } from './types.ts';

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
  annotations: typeof TOOL_ANNOTATIONS & { title: string };
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
    description: op.description,
    inputSchema: toToolInputSchema(op),
    annotations: { title: op.title, ...TOOL_ANNOTATIONS },
  }));
}

function toolResult(data: Record<string, unknown>, isError: boolean): ToolResult {
  const result: ToolResult = { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
  if (isError) result.isError = true;
  return result;
}

/** A JSON-RPC error the SDK sends as is (McpError would prefix its message with "MCP error <code>:"). */
function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

export type ToolCaller = (name: string, args: Record<string, unknown> | undefined, key: ApiKeyRecord) => Promise<ToolResult>;

export function createToolCaller(
  deps: Pick<McpDeps, 'executor' | 'operations' | 'store' | 'logger' | 'clock' | 'usage' | 'rateLimiter'>,
): ToolCaller {
  const byTool = new Map(deps.operations.map((op) => [op.tool, op]));
  const clock = deps.clock ?? (() => new Date());

  return async function callTool(name, args, key) {
    const op = byTool.get(name);
    if (!op) throw rpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
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
      const result = await deps.executor.execute(op, input);
      const data = deps.executor.view(result, preset) as Record<string, unknown>;
      if (deps.usage) deps.usage.record(key.id, op.name);
      else {
        deps.store.addUsage(key.id, op.name, clock()).catch((err: unknown) => {
          deps.logger.warn({ err, keyPrefix: key.prefix }, 'usage not recorded');
        });
      }
      return toolResult(data, false);
    } catch (err) {
      const appError = toAppError(err);
      if (appError.code === 'internal') {
        deps.logger.error({ err, tool: name, keyPrefix: key.prefix }, 'tool call failed');
        // JSON-RPC internal error with a generic message: internal text never crosses the wire.
        throw rpcError(ErrorCode.InternalError, 'Internal error');
      }
      return toolResult({ code: appError.code, message: appError.message, ...appError.details }, true);
    }
  };
}
