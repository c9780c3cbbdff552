// The schemas of schemas.ts per projection preset, derived from the one rule of projection.ts, and
// their JSON Schema. `any` is what every preset satisfies: a member some preset drops is optional
// there. OpenAPI and MCP publish `any`; the suites check each answer against its own preset.
import { z } from 'zod';
import { dropsMember, type MemberPlace, type Preset } from './projection.ts';
import { NAMED_SCHEMAS, type SchemaName } from './schemas.ts';

export type SchemaMode = Preset | 'any';

const PRESETS: readonly Preset[] = ['full', 'standard', 'minimal'];

/** A set of presets, as the answers that any of them may give. */
type PresetSet = readonly Preset[];

function presetsOf(mode: SchemaMode): PresetSet {
  return mode === 'any' ? PRESETS : [mode];
}

/** Derived schemas per preset set, and the full-preset schema each was derived from. */
const derived = new Map<string, Map<z.ZodType, z.ZodType>>();
const origins = new WeakMap<z.ZodType, z.ZodType>();

/** `schema` (a full-preset schema) as answered in `mode`. */
export function schemaFor(schema: z.ZodType, mode: SchemaMode): z.ZodType {
  return derive(schema, presetsOf(mode));
}

export function namedSchemaFor(name: SchemaName, mode: SchemaMode): z.ZodType {
  return schemaFor(NAMED_SCHEMAS[name], mode);
}

function unwrap(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
}

/**
 * Rebuilds only what changes, so refinements and metadata of untouched schemas survive. `nested`:
 * the schema is of an object inside a resource, which minimal answers as a reference.
 */
function derive(schema: z.ZodType, presets: PresetSet, nested = false): z.ZodType {
  if (presets.length === 1 && presets[0] === 'full') return schema;
  // Only minimal treats a nested object differently from a resource.
  const reference = nested && presets.includes('minimal');
  const setKey = `${presets.join(',')}${reference ? ' nested' : ''}`;
  let memo = derived.get(setKey);
  if (!memo) derived.set(setKey, (memo = new Map()));
  const known = memo.get(schema);
  if (known) return known;
  let out: z.ZodType = schema;
  if (schema instanceof z.ZodOptional) {
    const inner = derive(schema.unwrap() as z.ZodType, presets, nested);
    if (inner !== schema.unwrap()) out = inner.optional();
  } else if (schema instanceof z.ZodArray) {
    const element = derive(schema.element as z.ZodType, presets, nested);
    if (element !== schema.element) out = z.array(element);
  } else if (schema instanceof z.ZodUnion) {
    const options = (schema.options as z.ZodType[]).map((option) => derive(option, presets, nested));
    if (options.some((option, i) => option !== schema.options[i])) out = z.union(options as [z.ZodType, ...z.ZodType[]]);
  } else if (schema instanceof z.ZodObject) {
    out = deriveObject(schema, presets, nested);
  }
  if (out !== schema) {
    const meta = z.globalRegistry.get(schema);
    if (meta) out = out.meta(meta);
    // A reference is another shape of its named schema: inlined where it is used, not a component.
    if (!reference) origins.set(out, schema);
  }
  memo.set(schema, out);
  return out;
}

/**
 * A member every preset of the set drops is left out (so a strict object refuses it); one that only
 * some drop is optional, and its value is derived for the presets that keep it.
 */
function deriveObject(schema: z.ZodObject, presets: PresetSet, nested: boolean): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  let changed = false;
  const members = schema.shape as Record<string, z.ZodType>;
  const place: MemberPlace = { nested, isPerson: 'preferredUsername' in members, isFile: 'mediaType' in members };
  for (const [key, member] of Object.entries(members)) {
    const dropping = presets.filter((preset) => dropsMember(preset, key, unwrap(member) instanceof z.ZodArray, place));
    if (dropping.length === presets.length) {
      changed = true;
      continue;
    }
    // A page's items are resources; every other object inside a resource is nested.
    let next = derive(member, presets.filter((preset) => !dropping.includes(preset)), nested || key !== 'orderedItems');
    if (dropping.length > 0) {
      const description = z.globalRegistry.get(member)?.description;
      const note = `Absent with projection_preset=${dropping.join(' or ')}.`;
      next = (next instanceof z.ZodOptional ? next : next.optional()).describe(description ? `${description} ${note}` : note);
    }
    if (next !== member) changed = true;
    shape[key] = next;
  }
  return changed ? z.strictObject(shape) : schema;
}

/** Every schema reachable from `roots`, derived ones mapped back to the schema they came from. */
function reachableSchemas(roots: z.ZodType[]): Map<z.ZodType, z.ZodType> {
  const out = new Map<z.ZodType, z.ZodType>();
  const visit = (schema: z.ZodType) => {
    if (out.has(schema)) return;
    out.set(schema, origins.get(schema) ?? schema);
    if (schema instanceof z.ZodOptional) visit(schema.unwrap() as z.ZodType);
    else if (schema instanceof z.ZodArray) visit(schema.element as z.ZodType);
    else if (schema instanceof z.ZodUnion) (schema.options as z.ZodType[]).forEach(visit);
    else if (schema instanceof z.ZodObject) Object.values(schema.shape as Record<string, z.ZodType>).forEach(visit);
  };
  roots.forEach(visit);
  return out;
}

type JsonSchema = Record<string, unknown>;

/**
 * JSON Schema (2020-12) of every named schema in `mode`, as components that `$ref` one another
 * through `uri(name)`; `$schema` and `$id` are left out, the container document states them.
 */
export function toJsonSchemas(mode: SchemaMode, uri: (name: string) => string): Record<SchemaName, JsonSchema> {
  const key = `${mode} ${uri('')}`;
  let schemas = generated.get(key);
  if (!schemas) generated.set(key, (schemas = generate(mode, uri)));
  return structuredClone(schemas);
}

/** Generated documents by mode and reference base: every listener and tool list asks for the same. */
const generated = new Map<string, Record<SchemaName, JsonSchema>>();

function generate(mode: SchemaMode, uri: (name: string) => string): Record<SchemaName, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  const names = new Map<z.ZodType, string>(Object.entries(NAMED_SCHEMAS).map(([name, schema]) => [schema, name]));
  // Answers first, so a part is named in the shape it has inside them; parts no answer reaches
  // (LiveVideo, Transcript: only ever answered whole) then stand alone.
  const answers = Object.entries(NAMED_SCHEMAS).filter(([name]) => /(Document|Page)$/.test(name));
  const reached = reachableSchemas(answers.map(([, schema]) => schemaFor(schema, mode)));
  const reachedOrigins = new Set(reached.values());
  const alone = Object.values(NAMED_SCHEMAS).filter((schema) => !reachedOrigins.has(schema));
  const named = new Map<string, z.ZodType>();
  for (const [schema, origin] of [...reached, ...reachableSchemas(alone.map((schema) => schemaFor(schema, mode)))]) {
    if (registry.has(schema)) continue;
    const name = names.get(origin);
    if (name === undefined) continue;
    // One component per name: a named schema answered in two shapes would need two names.
    if (named.has(name)) throw new Error(`${name} has two shapes in projection mode ${mode}`);
    named.set(name, schema);
    registry.add(schema, { id: name });
  }
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    uri,
    // Kept short, as every tool carries its schema: `format: date-time` says what zod's 400-character
    // pattern says, and a count's implied bound (2^53 - 1) adds nothing.
    override: ({ jsonSchema }) => {
      if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
      if (jsonSchema.type === 'integer' && jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    },
  });
  const out: Record<string, JsonSchema> = {};
  for (const [name, json] of Object.entries(schemas)) {
    const { $schema: _schema, $id: _id, ...rest } = json as JsonSchema;
    out[name] = rest;
  }
  return out as Record<SchemaName, JsonSchema>;
}

/** `names` and every schema they refer to, as the `$defs` of one JSON Schema document. */
export function toJsonSchemaDefs(names: readonly SchemaName[], mode: SchemaMode): Record<string, JsonSchema> {
  return closeOverRefs(toJsonSchemas(mode, (id) => `#/$defs/${id}`), names);
}

/**
 * `names` and every schema of `schemas` they refer to through `#/$defs/…` references, transitively:
 * the `$defs` one document needs. `schemas` must have been generated with `#/$defs/{id}` URIs.
 */
export function closeOverRefs(schemas: Readonly<Record<string, JsonSchema>>, names: readonly string[]): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  const add = (name: string) => {
    if (out[name] || !Object.hasOwn(schemas, name)) return;
    out[name] = schemas[name];
    visit(schemas[name]);
  };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') add(value.replace('#/$defs/', ''));
      else visit(value);
    }
  };
  names.forEach(add);
  return out;
}
