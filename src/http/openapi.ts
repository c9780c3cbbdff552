// OpenAPI 3.1 document generated from the operation registry: parameters from the zod schemas,
// the `{data}` envelope, problem+json errors and Bearer authentication.
import { z } from 'zod';
import { ERROR_CODES } from '../errors.ts';
import type { Config } from '../config/config.ts';
import type { Operation } from '../operations/types.ts';

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
    const json = parameterSchema(schema);
    return {
      name,
      in: inPath ? 'path' : 'query',
      required: inPath,
      description: (json.description as string | undefined) ?? name,
      schema: json,
    };
  });
}

function errorResponses(op: Operation): JsonObject {
  const codes = ['invalid_request', 'unauthorized', 'not_found', 'rate_limited', 'upstream_error', 'platform_unreachable', 'upstream_blocked', 'upstream_timeout', 'internal'];
  if (op.itemType) codes.push('invalid_cursor');
  if (op.path.includes(':username')) codes.push('private_account', 'private_content');
  if (op.name === 'live') codes.push('not_live');
  if (op.name === 'transcript') codes.push('no_transcript');
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code as keyof typeof ERROR_CODES].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: JsonObject = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: `Error codes: ${list.join(', ')}`,
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    };
  }
  return out;
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
      const content: JsonObject = {
        'application/json': {
          schema: {
            type: 'object',
            required: ['data'],
            additionalProperties: false,
            properties: { data: { type: 'object', description: op.itemType ? `OrderedCollectionPage of ${op.itemType}` : op.resultType } },
          },
        },
      };
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
            ...errorResponses(op),
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
      description: overview(config),
    },
    servers: [{ url: config.publicUrl }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key (rly_...).' } },
      schemas: {
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'detail', 'code', 'requestId'],
          properties: {
            type: { type: 'string', format: 'uri' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            instance: { type: 'string' },
            code: { type: 'string', enum: Object.keys(ERROR_CODES) },
            requestId: { type: 'string' },
          },
        },
      },
    },
  };
}
