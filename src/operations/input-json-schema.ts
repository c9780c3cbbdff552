// JSON Schema of an operation's input parameters as clients should see them. REST reads counts from
// the query string and MCP from JSON, and the zod input accepts both; published, a count is an integer.
type JsonSchema = Record<string, unknown>;

/** `anyOf [integer, string]` (the query-string form) → the integer branch, keeping description and default. */
export function preferInteger(property: JsonSchema): JsonSchema {
  const branches = property.anyOf;
  if (!Array.isArray(branches)) return property;
  const integer = branches.find((b: JsonSchema) => b.type === 'integer' || b.type === 'number');
  if (!integer || !branches.every((b: JsonSchema) => b === integer || b.type === 'string')) return property;
  const { anyOf: _dropped, ...rest } = property;
  return { ...rest, ...integer };
}
