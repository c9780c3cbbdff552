// MCP tools for watches, beside the twelve platform tools (which the operation registry generates):
// the same watch service REST uses, scoped to the caller's key. Errors a model can act on are
// tool results with isError, like the platform tools'.
import { z } from 'zod';
import { toAppError } from '../errors.ts';
import { ToolErrorSchema } from '../error-schemas.ts';
import type { ApiKeyRecord } from '../storage/types.ts';
import { ownerOf } from '../watches/owner.ts';
import { CreateWatchInput, toWatchJsonSchemaDefs, UpdateWatchInput, WATCH_SCHEMAS, type WatchSchemaName } from '../watches/schemas.ts';
import { DELIVERY_STATUSES } from '../watches/types.ts';
import { toHistoryPage, type WatchService } from '../watches/service.ts';

const id = z.string().describe('The watch id (wch_…), as watch_create or watch_list gave it.');

const TOOLS = {
  watch_create: {
    title: 'Create a watch',
    description:
      'Watch a user, video, tag or live on a schedule: each run records a snapshot of its counts, and changes (video.published, live.started, live.ended, user.changed) are sent to the optional webhook, signed per Standard Webhooks. The answer shows the webhook secret once.',
    input: CreateWatchInput,
    output: 'WatchWithSecretResponse',
    readOnly: false,
  },
  watch_list: { title: 'List watches', description: "The caller's watches with their status, last run and pause reason.", input: z.object({}), output: 'WatchListResponse', readOnly: true },
  watch_get: { title: 'Get a watch', description: 'One watch: schedule, webhook URL, status, failures, last run.', input: z.object({ id }), output: 'WatchResponse', readOnly: true },
  watch_update: {
    title: 'Change a watch',
    description: 'Change the interval, events or webhook of a watch, or pause and resume it (status active|paused).',
    input: UpdateWatchInput.extend({ id }),
    output: 'WatchUpdatedResponse',
    readOnly: false,
  },
  watch_delete: { title: 'Delete a watch', description: 'Deletes a watch with its history and deliveries.', input: z.object({ id }), output: 'WatchDeletedResponse', readOnly: false },
  watch_history: {
    title: 'Get the history of a watch',
    description: 'The snapshots of a watch in time order (counts per run), optionally between two times (ISO 8601 or epoch ms). When `limit` (default 1000) cuts the range, `next` is set: its `from` continues it.',
    input: z.object({ id, from: z.string().optional(), to: z.string().optional(), limit: z.string().optional() }),
    output: 'WatchHistoryResponse',
    readOnly: true,
  },
  watch_deliveries: {
    title: 'List the webhook deliveries of a watch',
    description: 'Deliveries newest first with status (pending, delivered, failed), attempts and last error.',
    input: z.object({ id, status: z.enum(DELIVERY_STATUSES).optional() }),
    output: 'DeliveryListResponse',
    readOnly: true,
  },
} as const satisfies Record<string, { title: string; description: string; input: z.ZodObject; output: WatchSchemaName; readOnly: boolean }>;

export type WatchToolName = keyof typeof TOOLS;

/**
 * A watch tool's outputSchema (2020-12, an object at the root as MCP requires): `{data}` as the
 * matching /v1/watches route answers it (a list needs the envelope: structuredContent is an object),
 * or the tool error of every tool.
 */
export function watchToolOutputSchema(name: WatchToolName): Record<string, unknown> {
  const { $schema: _schema, ...toolError } = z.toJSONSchema(ToolErrorSchema, { target: 'draft-2020-12' }) as Record<string, unknown>;
  const output = TOOLS[name].output;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    anyOf: [{ $ref: `#/$defs/${output}` }, { $ref: '#/$defs/ToolError' }],
    $defs: { ...toWatchJsonSchemaDefs(output), ToolError: toolError },
  };
}

/** The zod schema of a watch tool's successful structuredContent, for the suites. */
export function watchToolOutput(name: string): { name: WatchSchemaName; schema: z.ZodType } | undefined {
  if (!Object.hasOwn(TOOLS, name)) return undefined;
  const output = TOOLS[name as WatchToolName].output;
  return { name: output, schema: WATCH_SCHEMAS[output] };
}

export function watchToolDefinitions() {
  return Object.entries(TOOLS).map(([name, t]) => ({
    name,
    title: t.title,
    description: t.description,
    inputSchema: z.toJSONSchema(t.input, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>,
    outputSchema: watchToolOutputSchema(name as WatchToolName),
    annotations: { title: t.title, readOnlyHint: t.readOnly, destructiveHint: name === 'watch_delete', idempotentHint: name !== 'watch_create', openWorldHint: true },
  }));
}

function result(data: unknown, isError = false): Buffer {
  const structured = JSON.stringify(isError ? data : { data });
  return Buffer.from(JSON.stringify({ content: [{ type: 'text', text: structured }], structuredContent: JSON.parse(structured), ...(isError ? { isError: true } : {}) }));
}

/**
 * The CallToolResult bytes of a watch tool, or undefined when `name` is not one. `restBaseUrl`: the
 * REST API's public URL, which a history's `next` names as REST does.
 */
export function createWatchToolInvoker(watches: WatchService, restBaseUrl: string) {
  return async (name: string, args: Record<string, unknown> | undefined, key: ApiKeyRecord): Promise<Buffer | undefined> => {
    if (!Object.hasOwn(TOOLS, name)) return undefined;
    const owner = ownerOf(key);
    const { id: watchId, ...rest } = (args ?? {}) as Record<string, unknown>;
    const wid = String(watchId ?? '');
    try {
      switch (name as WatchToolName) {
        case 'watch_create':
          return result(await watches.create(owner, args ?? {}));
        case 'watch_list':
          return result(await watches.list(owner));
        case 'watch_get':
          return result(await watches.get(owner, wid));
        case 'watch_update':
          return result(await watches.update(owner, wid, rest));
        case 'watch_delete':
          await watches.remove(owner, wid);
          return result({ deleted: wid });
        case 'watch_history': {
          const query = rest as Record<string, string | undefined>;
          return result(toHistoryPage(restBaseUrl, await watches.history(owner, wid, query), query));
        }
        case 'watch_deliveries':
          return result(await watches.deliveries(owner, wid, rest as Record<string, string | undefined>));
      }
    } catch (error) {
      const appError = toAppError(error);
      // JSON-RPC internal error with a generic message: internal text never crosses the wire.
      if (appError.code === 'internal') throw Object.assign(new Error('Internal error'), { code: -32603, cause: error });
      return result({ code: appError.code, message: appError.message, ...appError.details }, true);
    }
  };
}
