// The declared problems of an OpenAPI operation: one response per HTTP status, each a Problem whose
// `code` is one of the codes answered with that status. Shared by every path of /openapi.json.
import { ERROR_CODES, type ErrorCode } from '../errors.ts';

type JsonObject = Record<string, unknown>;

export function problemResponses(codes: readonly ErrorCode[]): JsonObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: JsonObject = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const schema = { allOf: [{ $ref: '#/components/schemas/Problem' }, { type: 'object', properties: { code: { enum: list } } }] };
    out[String(status)] = {
      description: `Error codes: ${list.join(', ')}`,
      ...(status === 429 || status === 503 ? { headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } } } : {}),
      content: { 'application/problem+json': { schema } },
    };
  }
  return out;
}
