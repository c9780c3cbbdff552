// OpenAPI 3.1 document generated from the operation registry: parameters from the zod inputs, the
// `{data}` envelope of each answer from the resource schemas (activitystreams/schemas.ts), every
// problem+json an operation can answer with its status, and Bearer authentication.
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../errors.ts';
import type { Config } from '../config/config.ts';
import type { Operation } from '../operations/types.ts';
import { MEDIA_PATHS, MEDIA_SCHEMAS } from './media-openapi.ts';
import { problemResponses } from './openapi-problems.ts';
import { WATCH_PATHS, watchComponents } from './watch-openapi.ts';
import { preferInteger } from '../operations/input-json-schema.ts';
import { toJsonSchemas } from '../activitystreams/schema-presets.ts';
import { ProblemSchema } from '../error-schemas.ts';

type JsonObject = Record<string, unknown>;

function parameterSchema(schema: z.ZodType): JsonObject {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonObject;
  delete json.$schema;
  const output = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonObject;
  if (json.default === undefined && output.default !== undefined) json.default = output.default;
  return asQueryInteger(json);
}

/**
 * A query value always arrives as text, so an integer parameter also accepts a digit string: that
 * branch is how the integer travels, not a second type. Documented as the integer it is.
 */
function asQueryInteger(json: JsonObject): JsonObject {
  const branches = json.anyOf as JsonObject[] | undefined;
  const integer = branches?.find((branch) => branch.type === 'integer');
  if (!branches || !integer || !branches.every((branch) => branch === integer || (branch.type === 'string' && typeof branch.pattern === 'string'))) return json;
  const { anyOf: _anyOf, ...rest } = json;
  return { ...rest, ...integer };
}

function parameters(op: Operation): JsonObject[] {
  const shape = op.input.shape as Record<string, z.ZodType>;
  return Object.entries(shape).map(([name, schema]) => {
    const inPath = op.pathParams.includes(name);
    const json = preferInteger(parameterSchema(schema));
    return {
      name,
      in: inPath ? 'path' : 'query',
      required: inPath,
      description: (json.description as string | undefined) ?? name,
      schema: json,
    };
  });
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** What any operation can answer: bad input, auth, limits, the platform's refusals and failures. */
const COMMON_ERRORS: readonly ErrorCode[] = [
  'invalid_request', 'unauthorized', 'not_acceptable', 'private_content', 'geo_blocked', 'not_found', 'rate_limited', 'headers_too_large',
  'internal', 'upstream_error', 'platform_unreachable', 'upstream_blocked', 'unavailable', 'store_unavailable', 'upstream_timeout',
];

/** Every code the operation can answer; the classification of platform answers is the same for all. */
export function operationErrorCodes(op: Operation): ErrorCode[] {
  const codes = [...COMMON_ERRORS];
  if (op.itemType) codes.push('invalid_cursor');
  if (op.pathParams.includes('username')) codes.push('private_account');
  if (op.name === 'live') codes.push('not_live');
  if (op.name === 'transcript') codes.push('no_transcript');
  return codes;
}

/** `{"data": <answer>}`, one component per answer schema. */
function envelopes(operations: readonly Operation[]): JsonObject {
  const out: JsonObject = {};
  for (const op of operations) {
    out[`${op.output}Response`] = {
      type: 'object',
      required: ['data'],
      additionalProperties: false,
      properties: { data: ref(op.output) },
    };
  }
  return out;
}

function problemSchema(): JsonObject {
  const { $schema: _schema, ...json } = z.toJSONSchema(ProblemSchema, { target: 'draft-2020-12' }) as JsonObject;
  return json;
}

function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, '{$1}');
}

/** The reference's introduction (Markdown, shown at the top of /docs): envelope, paging, auth and every error code. */
function overview(config: Config): string {
  const errors = Object.entries(ERROR_CODES).map(([code, entry]) => `| \`${code}\` | ${entry.status} | ${entry.title} |`);
  return [
    'Public data of a short-video platform as ActivityStreams JSON. Every answer is `{"data": ...}`; errors are RFC 9457 problem documents with a stable `code`.',
    '',
    'Every request sends `Authorization: Bearer <API key>`: press **Authorize**, paste your key, then **Execute** any operation. The key stays in this page\'s memory only.',
    'Collections page with `cursor` (start at `0`, then send `nextCursor`, or follow `next`) and `count`.',
    `The same operations are MCP tools at \`${config.mcpPublicUrl}\`.`,
    '',
    '| Error code | HTTP | Title |',
    '|---|---|---|',
    ...errors,
  ].join('\n');
}

export function buildOpenApi(operations: readonly Operation[], config: Config): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const op of operations) {
    for (const [index, path] of [op.path, ...(op.aliases ?? [])].entries()) {
      const content: JsonObject = { 'application/json': { schema: ref(`${op.output}Response`) } };
      // The same document under the JSON-LD and ActivityStreams media types (negotiated by Accept).
      for (const type of ['application/ld+json; profile="https://www.w3.org/ns/activitystreams"', 'application/activity+json']) content[type] = content['application/json'];
      if (op.name === 'transcript') content['text/vtt'] = { schema: { type: 'string' } };
      paths[toOpenApiPath(path)] = {
        get: {
          operationId: index === 0 ? op.name : `${op.name}Alias${index}`,
          summary: op.title,
          description: `${op.description}\n\nMCP tool: \`${op.tool}\`.`,
          tags: [op.path.includes('/users/') ? 'users' : op.path.includes('/tags/') ? 'tags' : 'videos'],
          parameters: parameters(op),
          responses: {
            '200': { description: op.resultType, content },
            '304': { description: 'Not modified (If-None-Match matched the ETag).' },
            ...problemResponses(operationErrorCodes(op)),
          },
        },
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'reelay',
      version: '1.0.0',
      description: `${overview(config)}\n\nThe answer schemas hold for every \`projection_preset\`: a member some preset drops is optional and says so.`,
    },
    servers: [{ url: config.publicUrl }],
    security: [{ bearer: [] }],
    paths: { ...paths, ...MEDIA_PATHS, ...WATCH_PATHS },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key (rly_...).' } },
      schemas: {
        ...toJsonSchemas('any', (id) => `#/components/schemas/${id}`),
        ...envelopes(operations),
        ...MEDIA_SCHEMAS,
        ...watchComponents(),
        Problem: problemSchema(),
      },
    },
  };
}
