// Tool input schemas in JSON Schema 2020-12, generated from each operation's zod input (the same
// source REST validates with), adjusted for what a model should see: JSON numbers for counts,
// visible defaults, advice on presets and page sizes, and no REST-only parameters.
import { z } from 'zod';
import type { Operation } from '../operations/types.ts';
import { countAdvice, PRESET_ADVICE } from './guidance.ts';
import { preferInteger } from '../operations/input-json-schema.ts';
import { toJsonSchemaDefs } from '../activitystreams/schema-presets.ts';
import { ToolErrorSchema } from '../error-schemas.ts';

/** REST-only parameters: the transcript tool always answers the Document, never raw WebVTT. */
export const HIDDEN_TOOL_PARAMS: readonly string[] = ['format'];
/** REST's default (src/http/routes.ts): a call with default arguments answers exactly the REST data. */
export const DEFAULT_TOOL_PRESET = 'full';

type JsonSchema = Record<string, unknown>;

function zodDefault(schema: z.ZodType): unknown {
  const def = (schema as unknown as { _zod: { def: { type: string; defaultValue?: unknown } } })._zod.def;
  return def.type === 'default' ? def.defaultValue : undefined;
}

export function toToolInputSchema(op: Operation): JsonSchema {
  const schema = z.toJSONSchema(op.input, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const properties = { ...(schema.properties as Record<string, JsonSchema>) };
  const shape = op.input.shape as Record<string, z.ZodType>;
  for (const name of Object.keys(properties)) {
    if (HIDDEN_TOOL_PARAMS.includes(name)) {
      delete properties[name];
      continue;
    }
    let property = preferInteger(properties[name]);
    const fallback = zodDefault(shape[name]);
    if (property.default === undefined && fallback !== undefined) property = { ...property, default: fallback };
    if (name === 'projection_preset') property = { ...property, default: DEFAULT_TOOL_PRESET, description: PRESET_ADVICE };
    if (name === 'count' && typeof property.maximum === 'number') {
      property = { ...property, description: countAdvice(property.maximum, property.default) };
    }
    properties[name] = property;
  }
  const required = Array.isArray(schema.required) ? schema.required.filter((n: string) => !HIDDEN_TOOL_PARAMS.includes(n)) : [];
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
  };
}

/**
 * The tool's outputSchema (2020-12, an object at the root as MCP requires): its answer, in any
 * preset, or the tool error that comes with `isError: true`. Clients such as the MCP SDK validate
 * every structuredContent against it, error results included, so the error shape is part of it.
 */
export function toToolOutputSchema(op: Operation): JsonSchema {
  const { $schema: _schema, ...toolError } = z.toJSONSchema(ToolErrorSchema, { target: 'draft-2020-12' }) as JsonSchema;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    anyOf: [{ $ref: `#/$defs/${op.output}` }, { $ref: '#/$defs/ToolError' }],
    $defs: { ...toJsonSchemaDefs([op.output], 'any'), ToolError: toolError },
  };
}
