// The zod schemas of the watch API: the bodies it accepts and what it answers on REST and MCP. They
// are the single source of the adapters' types (z.infer), the OpenAPI components, the watch tools'
// outputSchema and the suites' checks. Unlike AS2 resources, a watch's "none yet" members are null.
import { z } from 'zod';
import { closeOverRefs } from '../activitystreams/schema-presets.ts';
import { DELIVERY_STATUSES, EVENT_TYPES, WATCH_KINDS, WATCH_STATUSES } from './types.ts';

const timestamp = z.iso.datetime().describe('ISO 8601 UTC with milliseconds.');
const count = z.int().nonnegative();
const watchId = z.string().describe('wch_…');

// ---- What the API accepts ----

const webhookInput = z.strictObject({ url: z.string().min(1).max(2048).describe('http or https; checked against SSRF (docs/watches.md).') });
const eventsInput = z
  .array(z.enum(EVENT_TYPES))
  .max(EVENT_TYPES.length)
  .describe('Which events the webhook gets; default every change (all but snapshot).');
const everyInput = z.string().min(2).max(16).describe('A whole number with a unit: 30s, 15m, 2h, 1d; from REELAY_WATCH_MIN_INTERVAL to 7d.');

export const CreateWatchInput = z.strictObject({
  kind: z.enum(WATCH_KINDS),
  target: z.string().min(1).max(200).describe('A username (with or without @), a video id, a tag name (with or without #), or for live a username.'),
  every: everyInput,
  webhook: webhookInput.optional(),
  events: eventsInput.optional(),
});

export const UpdateWatchInput = z.strictObject({
  every: everyInput.optional(),
  webhook: webhookInput.nullable().optional().describe('null removes the webhook; a watch that gains one gets a secret, shown in this answer only.'),
  events: eventsInput.optional(),
  status: z.enum(WATCH_STATUSES).optional().describe('paused stops the runs; active resumes them and clears the failures.'),
});

// ---- What it answers ----

/** Which watch an answer or an event is about. */
export const WatchRefSchema = z.strictObject({ id: watchId, kind: z.enum(WATCH_KINDS), target: z.string() });

const watchMembers = {
  id: watchId,
  kind: z.enum(WATCH_KINDS),
  target: z.string().describe('Normalised: a username without @, a video id, a tag name without #.'),
  every: z.string().describe('The interval, e.g. "15m".'),
  events: z.array(z.enum(EVENT_TYPES)),
  status: z.enum(WATCH_STATUSES),
  pausedReason: z.string().nullable().describe('Why the watch is paused; null while active.'),
  failures: count.describe('Failed runs in a row.'),
  lastError: z.string().nullable().describe('The last failed run\'s error; null after a success.'),
  lastRunAt: timestamp.nullable().describe('null before the first run.'),
  nextRunAt: timestamp.nullable().describe('null while paused.'),
  createdAt: timestamp,
  updatedAt: timestamp,
};

/** A watch as the API shows it: never its webhook secret. */
export const WatchSchema = z.strictObject({
  ...watchMembers,
  webhook: z.strictObject({ url: z.string() }).nullable(),
});

/** The answer that gives a watch its webhook: the secret is shown this once. */
export const WatchWithSecretSchema = z.strictObject({
  ...watchMembers,
  webhook: z.strictObject({ url: z.string(), secret: z.string().describe('whsec_…: verifies the signatures (Standard Webhooks). Shown once.') }).nullable(),
});

/** The counts one run records, by kind (docs/watches.md). */
export const METRICS_BY_KIND = {
  user: ['followerCount', 'followingCount', 'likeCount', 'videoCount'],
  video: ['viewCount', 'likeCount', 'commentCount', 'shareCount', 'saveCount'],
  tag: ['videoCount'],
  live: ['isLive', 'viewerCount'],
} as const;

export type MetricName = (typeof METRICS_BY_KIND)[keyof typeof METRICS_BY_KIND][number];
const METRIC_NAMES = [...new Set(Object.values(METRICS_BY_KIND).flat())] as MetricName[];

/** One run: its time, then the counts its kind records. */
export const HistoryPointSchema = z.strictObject({
  at: timestamp,
  ...(Object.fromEntries(METRIC_NAMES.map((name) => [name, count.optional()])) as Record<MetricName, z.ZodOptional<typeof count>>),
});

export const WatchHistorySchema = z.strictObject({
  watch: WatchRefSchema,
  points: z.array(HistoryPointSchema).describe('In time order.'),
  next: z.url().nullable().describe('The rest of the range when `limit` cut it; null on the last page.'),
});

/** The body of a webhook delivery (the signed JSON). */
export const WebhookEventSchema = z.strictObject({
  type: z.enum(EVENT_TYPES),
  timestamp,
  data: z.strictObject({
    watch: WatchRefSchema,
    runAt: timestamp,
    object: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe('The AS2 object as REST returns it: a Video, the live Video, the Person, or a tag\'s first page; null for a snapshot of a live watch while not live.'),
    changes: z.record(z.string(), z.strictObject({ from: z.unknown(), to: z.unknown() })).optional().describe('user.changed: each changed member.'),
    metrics: z.record(z.string(), count).optional().describe('snapshot: the counts of the run.'),
  }),
});

export const DeliverySchema = z.strictObject({
  id: z.string().describe('Also the webhook-id header.'),
  event: z.enum(EVENT_TYPES),
  status: z.enum(DELIVERY_STATUSES),
  attempts: count,
  nextAttemptAt: timestamp.nullable().describe('null unless pending.'),
  lastStatus: z.int().nullable().describe('The receiver\'s last HTTP status; null when it never answered.'),
  lastError: z.string().nullable(),
  createdAt: timestamp,
  deliveredAt: timestamp.nullable(),
  payload: WebhookEventSchema,
});

/** What the watch_delete tool answers (REST answers 204). */
export const WatchDeletedSchema = z.strictObject({ deleted: watchId });

const envelope = <T extends z.ZodType>(data: T) => z.strictObject({ data });

export const WatchResponseSchema = envelope(WatchSchema);
export const WatchWithSecretResponseSchema = envelope(WatchWithSecretSchema);
/** PATCH: the watch, with the secret when the change gave it a webhook. */
export const WatchUpdatedResponseSchema = envelope(z.union([WatchSchema, WatchWithSecretSchema]));
export const WatchListResponseSchema = envelope(z.array(WatchSchema));
export const WatchHistoryResponseSchema = envelope(WatchHistorySchema);
export const DeliveryResponseSchema = envelope(DeliverySchema);
export const DeliveryListResponseSchema = envelope(z.array(DeliverySchema).describe('Newest first.'));
export const WatchDeletedResponseSchema = envelope(WatchDeletedSchema);

export type WatchView = z.infer<typeof WatchSchema>;
export type WatchWithSecret = z.infer<typeof WatchWithSecretSchema>;
export type HistoryPoint = z.infer<typeof HistoryPointSchema>;
export type WatchHistory = z.infer<typeof WatchHistorySchema>;
export type DeliveryView = z.infer<typeof DeliverySchema>;

/** Component names (OpenAPI `components.schemas`, MCP `$defs`), parts first. */
export const WATCH_SCHEMAS = {
  WatchCreateBody: CreateWatchInput,
  WatchUpdateBody: UpdateWatchInput,
  WatchRef: WatchRefSchema,
  Watch: WatchSchema,
  WatchWithSecret: WatchWithSecretSchema,
  HistoryPoint: HistoryPointSchema,
  WatchHistory: WatchHistorySchema,
  WebhookEvent: WebhookEventSchema,
  Delivery: DeliverySchema,
  WatchDeleted: WatchDeletedSchema,
  WatchResponse: WatchResponseSchema,
  WatchWithSecretResponse: WatchWithSecretResponseSchema,
  WatchUpdatedResponse: WatchUpdatedResponseSchema,
  WatchListResponse: WatchListResponseSchema,
  WatchHistoryResponse: WatchHistoryResponseSchema,
  DeliveryResponse: DeliveryResponseSchema,
  DeliveryListResponse: DeliveryListResponseSchema,
  WatchDeletedResponse: WatchDeletedResponseSchema,
} as const;

export type WatchSchemaName = keyof typeof WATCH_SCHEMAS;

type JsonSchema = Record<string, unknown>;

const generated = new Map<string, Record<WatchSchemaName, JsonSchema>>();

/**
 * JSON Schema (2020-12) of every watch schema, as components that `$ref` one another through
 * `uri(name)`; kept short the way the resource schemas are (no date-time pattern).
 */
export function toWatchJsonSchemas(uri: (name: string) => string): Record<WatchSchemaName, JsonSchema> {
  const key = uri('');
  let schemas = generated.get(key);
  if (!schemas) {
    const registry = z.registry<{ id: string }>();
    for (const [name, schema] of Object.entries(WATCH_SCHEMAS)) registry.add(schema, { id: name });
    const out = z.toJSONSchema(registry, {
      target: 'draft-2020-12',
      uri,
      override: ({ jsonSchema }) => {
        if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
        if (jsonSchema.type === 'integer' && jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      },
    }).schemas;
    schemas = Object.fromEntries(
      Object.entries(out).map(([name, json]) => {
        const { $schema: _schema, $id: _id, ...rest } = json as JsonSchema;
        return [name, rest];
      }),
    ) as Record<WatchSchemaName, JsonSchema>;
    generated.set(key, schemas);
  }
  return structuredClone(schemas);
}

/** `name` and every watch schema it refers to, as the `$defs` of one JSON Schema document. */
export function toWatchJsonSchemaDefs(name: WatchSchemaName): Record<string, JsonSchema> {
  return closeOverRefs(toWatchJsonSchemas((id) => `#/$defs/${id}`), [name]);
}
