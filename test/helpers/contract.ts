// The answer contract, enforced on every answer the suites receive: each REST `data` and each MCP
// structuredContent is checked against its zod schema for the preset asked (strict: no stray
// members, dropped members absent) and against the JSON Schema that OpenAPI and tools/list publish,
// the way a client validates it; problems and tool errors against theirs; a watch route's answer
// against the status, media type and component its OpenAPI operation declares. Harnesses install it.
import type { FastifyInstance } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { z } from 'zod';
import { OPERATIONS } from '../../src/operations/registry.ts';
import type { Operation } from '../../src/operations/types.ts';
import { namedSchemaFor, toJsonSchemas } from '../../src/activitystreams/schema-presets.ts';
import type { Preset } from '../../src/activitystreams/projection.ts';
import { ProblemSchema, ToolErrorSchema } from '../../src/error-schemas.ts';
import { DEFAULT_TOOL_PRESET, toToolOutputSchema } from '../../src/mcp/tool-schema.ts';
import { WATCH_PATHS } from '../../src/http/watch-openapi.ts';
import { toWatchJsonSchemas, WATCH_SCHEMAS, type WatchSchemaName } from '../../src/watches/schemas.ts';
import { watchToolOutput, watchToolOutputSchema, type WatchToolName } from '../../src/mcp/watch-tools.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const ROUTES = OPERATIONS.flatMap((op) =>
  [op.path, ...(op.aliases ?? [])].map((path) => ({ op, pattern: new RegExp(`^${path.replace(/:[A-Za-z]+/g, '[^/]+')}$`) })),
);

function operationOf(path: string): Operation | undefined {
  return ROUTES.find((route) => route.pattern.test(path))?.op;
}

type OpenApiResponse = { content?: Record<string, { schema?: { $ref?: string; allOf?: [unknown, { properties: { code: { enum: string[] } } }] } }> };
type WatchCall = { where: string; responses: Record<string, OpenApiResponse> };

/** The watch routes as /openapi.json publishes them: what each may answer, by status and media type. */
const WATCH_CALLS = Object.entries(WATCH_PATHS).flatMap(([path, item]) =>
  Object.entries(item as Record<string, { responses: Record<string, OpenApiResponse> }>).map(([method, spec]) => ({
    method: method.toUpperCase(),
    pattern: new RegExp(`^${path.replace(/\{[A-Za-z]+\}/g, '[^/]+')}$`),
    call: { where: `${method.toUpperCase()} ${path}`, responses: spec.responses },
  })),
);

function watchCallOf(method: string, path: string): WatchCall | undefined {
  return WATCH_CALLS.find((route) => route.method === method && route.pattern.test(path))?.call;
}

function zodIssues(schema: z.ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  return result.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}

const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
const compiled = new Map<string, ValidateFunction>();

/** A validator of the published JSON Schema, compiled once. */
function published(key: string, build: () => Record<string, unknown>): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) compiled.set(key, (validate = ajv.compile(build())));
  return validate;
}

function ajvIssues(validate: ValidateFunction, value: unknown): string | undefined {
  if (validate(value)) return undefined;
  return (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(root)'} ${e.message}`).join('; ');
}

/** The OpenAPI component of an answer, with the other components as `$defs`. */
function componentSchema(name: string): Record<string, unknown> {
  return { $ref: `#/$defs/${name}`, $defs: toJsonSchemas('any', (id) => `#/$defs/${id}`) };
}

function presetOf(value: unknown, fallback: Preset): Preset {
  return value === 'minimal' || value === 'standard' || value === 'full' ? value : fallback;
}

export type RestAnswer = { method: string; url: string; status: number; contentType: string; body: string };

/** What a check found: the schema applied, and why the answer breaks it (undefined: it keeps it). */
export type Verdict = { schema: string; violation?: string };

/** The REST answer checked against its schema; undefined when it is not an API answer. */
export function checkRestAnswer(answer: RestAnswer): Verdict | undefined {
  if (answer.method === 'HEAD' || answer.status === 304) return undefined;
  const url = new URL(answer.url, 'http://contract.test');
  const where = `${answer.method} ${url.pathname}${url.search} → ${answer.status}`;
  const watchCall = watchCallOf(answer.method, url.pathname);
  if (answer.contentType.startsWith('application/problem+json')) {
    const body = parse(answer.body);
    const issues = zodIssues(ProblemSchema, body) ?? ajvIssues(published('Problem', () => z.toJSONSchema(ProblemSchema, { target: 'draft-2020-12' })), body);
    if (!issues && (body as { status?: number }).status !== answer.status) return { schema: 'Problem', violation: `${where}: problem status differs from the HTTP status` };
    if (!issues && watchCall) {
      const declared = watchCall.responses[String(answer.status)]?.content?.['application/problem+json']?.schema?.allOf?.[1].properties.code.enum ?? [];
      const code = (body as { code: string }).code;
      if (!declared.includes(code)) return { schema: 'Problem', violation: `${where}: ${watchCall.where} does not declare ${code} under ${answer.status}` };
    }
    return { schema: 'Problem', violation: issues && `${where}: not a Problem: ${issues}` };
  }
  if (watchCall) return checkWatchAnswer(watchCall, answer, where);
  const op = operationOf(url.pathname);
  if (!op || answer.status !== 200 || !answer.contentType.startsWith('application/json')) return undefined;
  const body = parse(answer.body) as { data?: unknown } | undefined;
  if (typeof body !== 'object' || body === null || Object.keys(body).join() !== 'data') return { schema: op.output, violation: `${where}: not a {"data": ...} envelope` };
  const preset = presetOf(url.searchParams.get('projection_preset'), 'full');
  const issues = zodIssues(namedSchemaFor(op.output, preset), body.data) ?? ajvIssues(published(op.output, () => componentSchema(op.output)), body.data);
  return { schema: op.output, violation: issues && `${where}: data is not a ${op.output} (${preset}): ${issues}` };
}

/** The watch component `name`, with the other watch components as `$defs`. */
function watchComponentSchema(name: WatchSchemaName): Record<string, unknown> {
  return { $ref: `#/$defs/${name}`, $defs: toWatchJsonSchemas((id) => `#/$defs/${id}`) };
}

/**
 * A watch route's answer: a status and media type its OpenAPI operation declares, and a JSON body
 * that is the declared component (zod, strict, and the published JSON Schema).
 */
function checkWatchAnswer(call: WatchCall, answer: RestAnswer, where: string): Verdict {
  const declared = call.responses[String(answer.status)];
  if (!declared) return { schema: call.where, violation: `${where}: ${call.where} does not declare status ${answer.status}` };
  const mediaType = answer.contentType.split(';')[0].trim().toLowerCase();
  const content = declared.content ?? {};
  if (!(mediaType in content)) return { schema: call.where, violation: `${where}: ${call.where} does not declare ${mediaType || 'no content type'} under ${answer.status}` };
  const ref = content[mediaType].schema?.$ref;
  if (!ref) return { schema: `${call.where} ${mediaType}` };
  const name = ref.replace('#/components/schemas/', '') as WatchSchemaName;
  const body = parse(answer.body);
  const issues = zodIssues(WATCH_SCHEMAS[name], body) ?? ajvIssues(published(`watch:${name}`, () => watchComponentSchema(name)), body);
  return { schema: name, violation: issues && `${where}: not a ${name}: ${issues}` };
}

/** A watch tool's answer: `{data}` as its REST route answers it, or a tool error. */
function checkWatchToolAnswer(name: string, result: { isError?: boolean; structuredContent?: unknown }): Verdict | undefined {
  const output = watchToolOutput(name);
  if (!output) return undefined;
  const where = `tools/call ${name}`;
  if (result.structuredContent === undefined) return { schema: output.name, violation: `${where}: no structuredContent` };
  const outputSchema = published(`tool:${name}`, () => watchToolOutputSchema(name as WatchToolName));
  if (result.isError) {
    const issues = zodIssues(ToolErrorSchema, result.structuredContent) ?? ajvIssues(outputSchema, result.structuredContent);
    return { schema: 'ToolError', violation: issues && `${where}: not a tool error: ${issues}` };
  }
  const issues = zodIssues(output.schema, result.structuredContent) ?? ajvIssues(outputSchema, result.structuredContent);
  return { schema: output.name, violation: issues && `${where}: structuredContent is not a ${output.name}: ${issues}` };
}

/** A tools/call answer checked against the tool's schemas; `request` is the JSON-RPC request. */
export function checkToolAnswer(request: unknown, status: number, body: string): Verdict | undefined {
  const call = request as { method?: string; params?: { name?: unknown; arguments?: Record<string, unknown> } } | undefined;
  if (status !== 200 || call?.method !== 'tools/call') return undefined;
  const op = OPERATIONS.find((o) => o.tool === call.params?.name);
  const message = parseRpc(body) as { result?: { isError?: boolean; structuredContent?: unknown } } | undefined;
  if (!message?.result) return undefined;
  if (!op) return checkWatchToolAnswer(String(call.params?.name), message.result);
  const where = `tools/call ${op.tool}`;
  const { isError, structuredContent } = message.result;
  if (structuredContent === undefined) return { schema: op.output, violation: `${where}: no structuredContent` };
  const outputSchema = published(`tool:${op.tool}`, () => toToolOutputSchema(op));
  if (isError) {
    const issues = zodIssues(ToolErrorSchema, structuredContent) ?? ajvIssues(outputSchema, structuredContent);
    return { schema: 'ToolError', violation: issues && `${where}: not a tool error: ${issues}` };
  }
  const preset = presetOf(call.params?.arguments?.projection_preset, DEFAULT_TOOL_PRESET as Preset);
  const issues = zodIssues(namedSchemaFor(op.output, preset), structuredContent) ?? ajvIssues(outputSchema, structuredContent);
  return { schema: op.output, violation: issues && `${where}: structuredContent is not a ${op.output} (${preset}): ${issues}` };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A JSON-RPC message from a JSON body or the last `data:` line of an SSE body. */
function parseRpc(text: string): unknown {
  const direct = parse(text);
  if (direct !== undefined) return direct;
  const lines = text.split('\n').filter((line) => line.startsWith('data:'));
  return lines.length > 0 ? parse(lines[lines.length - 1].slice(5)) : undefined;
}

function payloadText(payload: unknown): string | undefined {
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return undefined;
}

/**
 * Checks every answer `app` sends and records what breaks the contract, so `assertKept` fails the
 * file. A broken REST answer is also replaced by a 500 naming the violation, so the test that asked
 * fails on the spot; a tool answer is checked as it leaves (see below).
 */
export type Contract = {
  violations: string[];
  /** How many answers were checked, per schema name. */
  checked: Map<string, number>;
  assertKept(): void;
};

export function enforceContract(app: FastifyInstance, edge: 'rest' | 'mcp'): Contract {
  const violations: string[] = [];
  const checked = new Map<string, number>();
  const record = (verdict: Verdict | undefined): string | undefined => {
    if (!verdict) return undefined;
    checked.set(verdict.schema, (checked.get(verdict.schema) ?? 0) + 1);
    if (verdict.violation) violations.push(verdict.violation);
    return verdict.violation;
  };
  if (edge === 'mcp') {
    // Tool answers are read off the wire: the tool server writes cached answers around Fastify's
    // send (one writev of stored bytes), so no onSend hook would see them.
    app.addHook('onRequest', async (request, reply) => {
      if (request.method !== 'POST' || request.url.split('?')[0] !== '/') return;
      const raw = reply.raw;
      const chunks: Buffer[] = [];
      const keep = (chunk: unknown) => {
        if (typeof chunk === 'string' || chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk as string));
      };
      const write = raw.write.bind(raw) as (...args: unknown[]) => boolean;
      const end = raw.end.bind(raw) as (...args: unknown[]) => typeof raw;
      raw.write = ((chunk: unknown, ...rest: unknown[]) => (keep(chunk), write(chunk, ...rest))) as typeof raw.write;
      // Checked when the answer is complete, before the client can have read all of it.
      raw.end = ((chunk?: unknown, ...rest: unknown[]) => {
        keep(chunk);
        record(checkToolAnswer(request.body, raw.statusCode, Buffer.concat(chunks).toString('utf8')));
        return end(chunk, ...rest);
      }) as typeof raw.end;
    });
  } else {
    app.addHook('onSend', async (request, reply, payload) => {
      const text = payloadText(payload);
      if (text === undefined) return payload;
      const contentType = String(reply.getHeader('content-type') ?? '');
      const violation = record(checkRestAnswer({ method: request.method, url: request.url, status: reply.statusCode, contentType, body: text }));
      if (!violation) return payload;
      // The test that asked fails on the spot too.
      reply.code(500).type('application/json');
      return JSON.stringify({ contractViolation: violation });
    });
  }
  return {
    violations,
    checked,
    assertKept() {
      if (violations.length > 0) throw new Error(`answers broke the contract:\n${violations.join('\n')}`);
    },
  };
}

/**
 * `fetch` for suites that talk to a service process over HTTP (no hook to install there): the
 * answer is checked like any other and a violation throws.
 */
export async function checkedFetch(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: string }> {
  const response = await fetch(url, init);
  const body = await response.text();
  const verdict = checkRestAnswer({
    method: init.method ?? 'GET',
    url,
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    body,
  });
  if (verdict?.violation) throw new Error(`the answer broke the contract: ${verdict.violation}`);
  return { status: response.status, headers: response.headers, body };
}
