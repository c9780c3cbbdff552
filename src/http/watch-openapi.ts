// OpenAPI paths of the watch routes (watch-routes.ts), kept apart from the registry-generated ones
// and merged into the document by openapi.ts. Their schemas are the watch zod schemas
// (watches/schemas.ts), so the document, the tools and the suites' checks cannot drift apart.
import type { ErrorCode } from '../errors.ts';
import { DELIVERIES_LIMIT_MAX, HISTORY_LIMIT_MAX } from '../watches/service.ts';
import { toWatchJsonSchemas, type WatchSchemaName } from '../watches/schemas.ts';
import { DELIVERY_STATUSES } from '../watches/types.ts';
import { problemResponses } from './openapi-problems.ts';

type JsonObject = Record<string, unknown>;

const ref = (name: WatchSchemaName) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: WatchSchemaName) => ({ 'application/json': { schema: ref(name) } });

/** What every watch call can answer: the key is checked and counted like any other call's. */
const ANY: readonly ErrorCode[] = ['unauthorized', 'rate_limited', 'headers_too_large', 'internal', 'store_unavailable'];
/** Calls with a body: Fastify refuses a body it cannot read before the route runs. */
const BODY: readonly ErrorCode[] = ['invalid_request', 'payload_too_large', 'unsupported_media_type'];

const idParam = { name: 'id', in: 'path', required: true, description: 'The watch id, as the creation answer gave it.', schema: { type: 'string', pattern: '^wch_[A-Za-z0-9_-]{1,40}$' } };
const limitParam = (max: number, fallback: number) => ({
  name: 'limit',
  in: 'query',
  required: false,
  description: `At most this many (1 to ${max}).`,
  schema: { type: 'integer', minimum: 1, maximum: max, default: fallback },
});
const time = (name: string, description: string) => ({ name, in: 'query', required: false, description, schema: { type: 'string' } });

function operation(spec: {
  operationId: string;
  summary: string;
  description: string;
  parameters?: JsonObject[];
  requestBody?: JsonObject;
  responses: JsonObject;
  problems: readonly ErrorCode[];
}): JsonObject {
  const { problems, ...rest } = spec;
  return {
    ...rest,
    tags: ['watches'],
    security: [{ bearer: [] }],
    parameters: spec.parameters ?? [],
    responses: { ...spec.responses, ...problemResponses([...new Set([...problems, ...ANY])]) },
  };
}

export const WATCH_PATHS: Record<string, JsonObject> = {
  '/v1/watches': {
    post: operation({
      operationId: 'createWatch',
      summary: 'Create a watch',
      description:
        'Runs one read of the target every `every`, records its counts (the history) and sends what changed to the optional webhook, signed per Standard Webhooks. The answer shows the webhook secret this once. MCP tool: `watch_create`.',
      requestBody: { required: true, content: json('WatchCreateBody') },
      responses: {
        '201': { description: 'The watch, with `webhook.secret`.', headers: { Location: { description: 'The watch\'s URL.', schema: { type: 'string', format: 'uri' } } }, content: json('WatchWithSecretResponse') },
      },
      problems: [...BODY, 'forbidden'],
    }),
    get: operation({
      operationId: 'listWatches',
      summary: 'List your watches',
      description: 'The watches of the calling key (or OAuth grant). MCP tool: `watch_list`.',
      responses: { '200': { description: 'The watches.', content: json('WatchListResponse') } },
      problems: [],
    }),
  },
  '/v1/watches/{id}': {
    get: operation({
      operationId: 'getWatch',
      summary: 'Get a watch',
      description: 'Schedule, status, `pausedReason`, failures, last and next run. Another key\'s watch is `404 not_found`. MCP tool: `watch_get`.',
      parameters: [idParam],
      responses: { '200': { description: 'The watch.', content: json('WatchResponse') } },
      problems: ['not_found'],
    }),
    patch: operation({
      operationId: 'updateWatch',
      summary: 'Change a watch',
      description:
        'Changes `every`, `events`, `webhook` (`null` removes it) or `status` (`paused`, `active`). A watch that gains a webhook gets a secret, shown in this answer only. MCP tool: `watch_update`.',
      parameters: [idParam],
      requestBody: { required: false, content: json('WatchUpdateBody') },
      responses: { '200': { description: 'The watch as changed.', content: json('WatchUpdatedResponse') } },
      problems: [...BODY, 'not_found'],
    }),
    delete: operation({
      operationId: 'deleteWatch',
      summary: 'Delete a watch',
      description: 'Its history and deliveries go with it. MCP tool: `watch_delete`.',
      parameters: [idParam],
      responses: { '204': { description: 'Deleted.' } },
      problems: ['not_found'],
    }),
  },
  '/v1/watches/{id}/history': {
    get: operation({
      operationId: 'watchHistory',
      summary: 'Get the history of a watch',
      description:
        'The snapshots in time order, as JSON, as CSV (`Accept: text/csv` or `?format=csv`: a header row `at` then the metrics in alphabetical order, one row per run) or as an SVG line chart (`Accept: image/svg+xml` or `?format=svg`: one panel per metric, self-contained). A longer range than `limit` answers `next` in JSON; CSV and the chart cover the first `limit` snapshots. MCP tool: `watch_history` (JSON).',
      parameters: [
        idParam,
        time('from', 'ISO 8601 time or epoch milliseconds, inclusive; default the first snapshot.'),
        time('to', 'ISO 8601 time or epoch milliseconds, inclusive; default now.'),
        limitParam(HISTORY_LIMIT_MAX, 1000),
        { name: 'format', in: 'query', required: false, description: 'Overrides Accept, for links that cannot set headers.', schema: { type: 'string', enum: ['json', 'csv', 'svg'] } },
      ],
      responses: {
        '200': {
          description: 'The history.',
          content: { ...json('WatchHistoryResponse'), 'text/csv': { schema: { type: 'string' } }, 'image/svg+xml': { schema: { type: 'string' } } },
        },
      },
      problems: ['invalid_request', 'not_found', 'not_acceptable'],
    }),
  },
  '/v1/watches/{id}/deliveries': {
    get: operation({
      operationId: 'watchDeliveries',
      summary: 'List the webhook deliveries of a watch',
      description: 'Newest first, with their payloads, attempts and last error; `failed` ones can be redelivered. MCP tool: `watch_deliveries`.',
      parameters: [
        idParam,
        { name: 'status', in: 'query', required: false, description: 'Only deliveries in this state.', schema: { type: 'string', enum: [...DELIVERY_STATUSES] } },
        limitParam(DELIVERIES_LIMIT_MAX, 100),
      ],
      responses: { '200': { description: 'The deliveries.', content: json('DeliveryListResponse') } },
      problems: ['invalid_request', 'not_found'],
    }),
  },
  '/v1/watches/{id}/deliveries/{deliveryId}/redeliver': {
    post: operation({
      operationId: 'redeliverWatchDelivery',
      summary: 'Send a delivery again',
      description: 'Queues a delivered or failed delivery again with a fresh retry window (a pending one is already on its way and is answered as it is).',
      parameters: [idParam, { name: 'deliveryId', in: 'path', required: true, description: 'The delivery id (its `webhook-id`).', schema: { type: 'string' } }],
      responses: { '202': { description: 'The delivery, queued.', content: json('DeliveryResponse') } },
      problems: ['not_found'],
    }),
  },
};

/** The components the watch paths refer to; the tool-only answer of watch_delete is left out. */
export function watchComponents(): Record<string, JsonObject> {
  const { WatchDeleted: _deleted, WatchDeletedResponse: _response, ...schemas } = toWatchJsonSchemas((id) => `#/components/schemas/${id}`);
  return schemas;
}
