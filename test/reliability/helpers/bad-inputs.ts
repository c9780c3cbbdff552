// fast-check generators of hostile requests for the bad-input suite: each builds a RawRequest for
// the REST listener, the tool server's MCP endpoint or its token endpoint.
import fc from 'fast-check';
import type { RawRequest } from './raw-http.ts';

export type Known = {
  key: string;
  revokedKey: string;
  expiredKey: string;
  username: string;
  videoId: string;
  /** A real nextCursor, to truncate and tamper with. */
  cursor: string;
};

export type Target = 'rest' | 'mcp' | 'oauth';
export type BadRequest = RawRequest & { target: Target };

const TRICKY = [
  '..', '.', '%2e%2e', '%2E%2E%2F', '..%2f..%2fetc%2fpasswd', '../../etc/passwd', '....//', '@', '@@', ' ', '%00', '%ff', '%',
  '%zz', 'a'.repeat(300), '<script>alert(1)</script>', "' OR 1=1 --", '${jndi:ldap://x}', '\u202e', 'ｆｕｌｌ', '🙂', 'ä', 'İ',
  'con', 'nul', '~root', '%0d%0aSet-Cookie:x=1', '/', '//', '\\', '{{7*7}}', '__proto__', 'constructor',
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT', 'PROPFIND', 'FOO', 'get', 'G E T', 'BREW'];
const REST_SUFFIXES = ['videos', 'likes', 'reposts', 'followers', 'collections', 'live', '', 'videos/extra'];

/** Printable ASCII stays raw (so `/`, `..` and `%` reach the router as sent); the rest is encoded. */
function rawSegment(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    out += byte > 0x20 && byte < 0x7f && byte !== 0x23 && byte !== 0x3f ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}

const oddText = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary-ascii', minLength: 25, maxLength: 400 }),
);
const segment = fc.tuple(oddText, fc.boolean()).map(([text, raw]) => (raw ? rawSegment(text) : encodeURIComponent(text)));
const oddCount = fc.oneof(
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom('-1', '0', '36', '1e9', '99999999999999999999999', 'NaN', 'Infinity', '0x10', '', ' 5', '5 ', '1,2', 'null', '[]'),
  fc.string({ maxLength: 20 }),
);

function oddCursor(known: Known) {
  return fc.oneof(
    fc.string({ unit: 'binary', maxLength: 80 }),
    fc.base64String({ maxLength: 200 }),
    fc.nat({ max: Math.max(0, known.cursor.length - 1) }).map((n) => known.cursor.slice(0, n)),
    fc.tuple(fc.nat({ max: Math.max(0, known.cursor.length - 1) }), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })).map(([n, c]) => known.cursor.slice(0, n) + c + known.cursor.slice(n + 1)),
    fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? 'null').toString('base64url')),
    fc.constantFrom('-1', '0', '1e400', 'x'.repeat(600), '%00', known.cursor + known.cursor),
  );
}

function authHeader(known: Known) {
  return fc.oneof(
    fc.constant(`Bearer ${known.key}`),
    fc.constantFrom(
      undefined, '', 'Bearer', 'Bearer ', `Basic ${Buffer.from('a:b').toString('base64')}`, `Bearer ${known.revokedKey}`,
      `Bearer ${known.expiredKey}`, `Bearer ${known.key.slice(0, -1)}`, `Bearer ${known.key}x`, `Bearer ${known.key} ${known.key}`,
      `Token ${known.key}`, `Bearer rly_${'A'.repeat(43)}`, `Bearer ${known.key.toUpperCase()}`,
    ),
    fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 60 }).map((s) => `Bearer rly_${s.replace(/[\r\n]/g, '')}`),
  );
}

function withAuth(known: Known, headers: Record<string, string> = {}) {
  return authHeader(known).map((auth) => (auth === undefined ? headers : { ...headers, authorization: auth }));
}

export function restPaths(known: Known) {
  return fc.oneof(
    fc.tuple(segment, fc.constantFrom(...REST_SUFFIXES)).map(([u, s]) => `/v1/platform/users/${u}${s ? `/${s}` : ''}`),
    fc.tuple(oddCount, oddCursor(known), fc.oneof(fc.constantFrom('newest', 'popular', 'oldest'), oddText)).map(
      ([c, cur, o]) => `/v1/platform/users/${known.username}/videos?count=${encodeURIComponent(c)}&cursor=${encodeURIComponent(cur)}&order=${encodeURIComponent(o)}`,
    ),
    fc.tuple(segment, fc.constantFrom('', '/comments', '/comments/123/replies', '/transcripts/en-US', '/transcripts/xx-XX')).map(
      ([id, rest]) => `/v1/platform/videos/${id}${rest}`,
    ),
    fc.tuple(fc.constantFrom('', '/comments', '/transcripts/'), segment).map(([rest, s]) => `/v1/platform/videos/${known.videoId}${rest}${rest.endsWith('/') ? s : `?count=${s}`}`),
    fc.tuple(segment, oddCount).map(([tag, c]) => `/v1/platform/tags/${tag}?count=${encodeURIComponent(c)}`),
    segment.map((s) => `/${s}`),
    fc.constantFrom('/v1/platform/users/../../../etc/passwd', '/v1/platform/%2e%2e/%2e%2e/', '//v1//platform//users', '/v1/platform/users/a?count=1&count=2', '/v1/platform/users/a?cursor[]=1'),
  );
}

const HEADER_NAMES = ['x-custom', 'accept', 'if-none-match', 'x-request-id', 'cookie', 'user-agent', 'accept-language', 'range'];

export function restRequests(known: Known): fc.Arbitrary<BadRequest> {
  const paths = restPaths(known);
  const plain = fc.tuple(paths, withAuth(known)).map(([path, headers]) => ({ target: 'rest' as const, method: 'GET', path, headers }));
  const methods = fc.tuple(fc.constantFrom(...METHODS), paths, withAuth(known)).map(([method, path, headers]) => ({ target: 'rest' as const, method, path, headers }));
  const bigHeaders = fc
    .tuple(fc.constantFrom(...HEADER_NAMES), fc.integer({ min: 1, max: 120_000 }), fc.integer({ min: 0, max: 400 }), withAuth(known))
    .map(([name, size, many, headers]) => {
      const extra: Record<string, string> = { [name]: 'x'.repeat(size) };
      for (let i = 0; i < many; i++) extra[`x-h${i}`] = String(i);
      return { target: 'rest' as const, method: 'GET', path: `/v1/platform/users/${known.username}`, headers: { ...headers, ...extra } };
    });
  const bodies = fc
    .tuple(fc.constantFrom('POST', 'PUT', 'GET', 'PATCH'), fc.integer({ min: 0, max: 2_000_000 }), fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/octet-stream'), paths, withAuth(known))
    .map(([method, size, type, path, headers]) => ({ target: 'rest' as const, method, path, headers: { ...headers, 'content-type': type }, body: '{'.repeat(Math.min(size, 10)) + 'a'.repeat(size) }));
  return fc.oneof({ arbitrary: plain, weight: 4 }, { arbitrary: methods, weight: 2 }, { arbitrary: bigHeaders, weight: 1 }, { arbitrary: bodies, weight: 1 });
}

const MCP_METHODS = ['initialize', 'tools/list', 'tools/call', 'ping', 'resources/list', 'prompts/list', 'notifications/initialized', 'logging/setLevel', 'completion/complete', ''];
const TOOLS = ['platform_get_user', 'platform_get_user_videos', 'platform_get_video', 'platform_get_video_comments', 'platform_get_video_transcript', 'platform_get_tag_videos', 'nope', ''];

function rpcBody(known: Known) {
  const args = fc.oneof(
    fc.dictionary(fc.constantFrom('username', 'videoId', 'count', 'cursor', 'language', 'projection_preset', 'tagName', 'order', 'x'), fc.oneof(oddText, fc.jsonValue(), oddCount)),
    fc.jsonValue(),
    fc.constant({ username: known.username, count: 5 }),
  );
  const message = fc.record(
    {
      jsonrpc: fc.oneof(fc.constant('2.0'), fc.jsonValue()),
      id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.jsonValue()),
      method: fc.oneof(fc.constantFrom(...MCP_METHODS), fc.string()),
      params: fc.oneof(fc.record({ name: fc.oneof(fc.constantFrom(...TOOLS), fc.string()), arguments: args }, { requiredKeys: [] }), fc.jsonValue()),
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    message.map((m) => JSON.stringify(m)),
    fc.array(message, { maxLength: 5 }).map((batch) => JSON.stringify(batch)),
    fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null'),
    fc.string({ unit: 'binary', maxLength: 200 }),
    message.map((m) => JSON.stringify(m)).chain((text) => fc.nat({ max: text.length }).map((n) => text.slice(0, n))),
  );
}

const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/jsonx', '', 'application/json; charset=utf-16'];

export function mcpRequests(known: Known): fc.Arbitrary<BadRequest> {
  const rpc = fc
    .tuple(rpcBody(known), fc.constantFrom(...CONTENT_TYPES), fc.constantFrom('application/json, text/event-stream', 'text/html', '*/*', ''), withAuth(known))
    .map(([body, type, accept, headers]) => ({ target: 'mcp' as const, method: 'POST', path: '/', body, headers: { ...headers, ...(type ? { 'content-type': type } : {}), ...(accept ? { accept } : {}) } }));
  const query = fc.tuple(fc.constantFrom('access_token', 'api_key', 'key'), withAuth(known)).map(([name, headers]) => ({
    target: 'mcp' as const, method: 'POST', path: `/?${name}=${known.key}`, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', headers: { ...headers, 'content-type': 'application/json' },
  }));
  const other = fc.tuple(fc.constantFrom(...METHODS), fc.integer({ min: 0, max: 1_500_000 }), withAuth(known)).map(([method, size, headers]) => ({
    target: 'mcp' as const, method, path: '/', body: size ? 'x'.repeat(size) : undefined, headers: { ...headers, 'content-type': 'application/json' },
  }));
  return fc.oneof({ arbitrary: rpc, weight: 6 }, { arbitrary: query, weight: 1 }, { arbitrary: other, weight: 1 });
}

export function oauthRequests(): fc.Arbitrary<BadRequest> {
  const form = fc.dictionary(
    fc.constantFrom('grant_type', 'code', 'refresh_token', 'client_id', 'client_secret', 'code_verifier', 'redirect_uri', 'resource', 'x'),
    fc.oneof(fc.constantFrom('authorization_code', 'refresh_token', 'client_credentials', 'password'), fc.string({ unit: 'binary', maxLength: 80 }), fc.base64String({ maxLength: 60 }).map((s) => `rlyac_${s}`), fc.base64String({ maxLength: 60 }).map((s) => `rlyr_${s}`)),
  );
  return fc.tuple(form, fc.constantFrom('application/x-www-form-urlencoded', 'application/json', 'text/plain'), fc.boolean()).map(([values, type, basic]) => ({
    target: 'oauth' as const,
    method: 'POST',
    path: '/token',
    headers: { 'content-type': type, ...(basic ? { authorization: `Basic ${Buffer.from('forged:secret').toString('base64')}` } : {}) },
    body: type === 'application/json' ? JSON.stringify(values) : new URLSearchParams(values).toString(),
  }));
}
