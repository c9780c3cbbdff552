// Bad input: at least 5,000 generated hostile requests against REST, the MCP endpoint and the token
// endpoint of a running `reelay serve`. Every answer is a 4xx in the edge's error format (never a
// 5xx, never a stack trace), secrets never show up in answers or logs, and the process stays healthy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { watch } from 'node:fs';
import { on } from 'node:events';
import fc from 'fast-check';
import { openStore, createKeyService } from '../../src/storage/index.ts';
import { startStack, STACK_TRACE, type Stack } from './helpers/stack.ts';
import { rawRequest, type RawResponse } from './helpers/raw-http.ts';
import { ERROR_CODES } from '../../src/errors.ts';
import { mcpRequests, oauthRequests, restRequests, type BadRequest, type Known } from './helpers/bad-inputs.ts';
import { findLeaks, type Leak } from './helpers/secrets.ts';
import { bump, printFigures, recordTotals } from './helpers/figures.ts';

const RUNS = { rest: 3000, mcp: 1800, oauth: 400 } as const;

let stack: Stack;
let known: Known;
const statuses: Record<string, Record<string, number>> = { rest: {}, mcp: {}, oauth: {} };
const violations: Record<string, string[]> = {};
/** Known defects outside this suite's files, kept apart so the todo test below reports them. */
const known_issues: Record<string, string[]> = {};
const FRAMEWORK_CLIENT_ERROR = /^\{"error":"[^"]+","message":"(Client Error|Exceeded maximum allowed HTTP header size)","statusCode":4\d\d\}$/;
const leaks: Leak[] = [];
let tried = 0;

function violation(kind: string, request: BadRequest, response: RawResponse, into = violations): void {
  into[kind] ??= [];
  if (into[kind].length < 12) {
    into[kind].push(`${request.method} ${request.path.slice(0, 120)} [headers ${JSON.stringify(request.headers ?? {}).length} B, body ${request.body?.length ?? 0} B] -> ${response.status} ${response.headers['content-type'] ?? ''} ${response.body.slice(0, 160)}`);
  } else into[kind].push('');
}

function parse(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The error format each edge promises: problem+json (REST), JSON-RPC (MCP), RFC 6749 (token). */
function judge(request: BadRequest, response: RawResponse): void {
  bump(statuses[request.target], response.noAnswer ? 'no answer' : response.status);
  // Every request gets an answer, even one whose large body the service never reads (CONNECT, an
  // early 401 or 413): the service lingers on close instead of resetting the connection.
  if (response.noAnswer) return violation(`${request.target}: no HTTP answer`, request, response);
  if (response.status >= 500) return violation(`${request.target}: ${response.status}`, request, response);
  if (STACK_TRACE.test(response.body)) violation(`${request.target}: stack trace in body`, request, response);
  leaks.push(...findLeaks(`${request.target} answer`, response.body, [known.key, known.revokedKey, known.expiredKey]));
  expectRightStatus(request, response);
  if (response.status < 400 || request.method === 'HEAD') return;
  const type = response.headers['content-type'] ?? '';
  const body = parse(response.body);
  if (FRAMEWORK_CLIENT_ERROR.test(response.body)) {
    return violation('HTTP parser errors (400/431) answered in Fastify\'s default JSON, not the edge format', request, response, known_issues);
  }
  if (typeof body?.code === 'string' && body.code.startsWith('FST_ERR_')) {
    return violation(`Fastify framework error ${body.code} answered in Fastify's default JSON (frameworkErrors not set)`, request, response, known_issues);
  }
  if (request.target === 'rest') {
    if (!type.startsWith('application/problem+json')) return violation('rest: 4xx not problem+json', request, response);
    if (body?.status !== response.status || typeof body?.code !== 'string') violation('rest: malformed problem', request, response);
  } else if (request.target === 'mcp') {
    if (!type.startsWith('application/json')) return violation('mcp: 4xx not JSON', request, response);
    if (typeof body?.error?.code !== 'number' && typeof body?.error !== 'string') violation('mcp: 4xx neither JSON-RPC nor OAuth error', request, response);
    else if (typeof body?.error?.code !== 'number') violation('MCP endpoint errors from the error handler in OAuth shape, not JSON-RPC', request, response, known_issues);
  } else if (typeof body?.error !== 'string') violation('oauth: 4xx without RFC 6749 error', request, response);
}

/** Served to anyone (README "Operations"): the index, probes, metrics, the API's documents, JSON-LD contexts, discovery. */
const PUBLIC_PATHS = ['/', '/healthz', '/readyz', '/metrics', '/openapi.json', '/docs', '/docs/', '/ns/', '/.well-known/'];

/**
 * Not just "below 500": the status must be the right one for what was wrong. Without the valid key
 * nothing succeeds; on REST only GET and HEAD can; a problem's status is the one its code has in
 * the catalog; and a cursor that reelay did not hand out for this very list is a 400.
 */
function expectRightStatus(request: BadRequest, response: RawResponse): void {
  const authorized = request.headers?.authorization === `Bearer ${known.key}`;
  const ok = response.status >= 200 && response.status < 300;
  // CORS preflights and the documented public documents answer without credentials by design.
  const pathOnly = request.path.split('?')[0];
  const isPublic = (request.method === 'GET' || request.method === 'HEAD') && PUBLIC_PATHS.some((p) => (p.endsWith('/') && p !== '/' ? pathOnly.startsWith(p) : pathOnly === p));
  if (ok && !authorized && request.method !== 'OPTIONS' && !isPublic) violation(`${request.target}: ${response.status} without a valid key`, request, response);
  if (request.target === 'rest') {
    if (ok && !['GET', 'HEAD', 'OPTIONS'].includes(request.method)) violation(`rest: ${request.method} succeeded`, request, response);
    const body = parse(response.body);
    const code = typeof body?.code === 'string' ? (body.code as string) : undefined;
    if (code && code in ERROR_CODES && ERROR_CODES[code as keyof typeof ERROR_CODES].status !== response.status) {
      violation('rest: problem code and status disagree', request, response);
    }
    // The raw path may not even parse as a URL ("//"): read its query string as the server would.
    const query = request.path.includes('?') ? request.path.slice(request.path.indexOf('?') + 1) : '';
    const cursor = new URLSearchParams(query).get('cursor');
    const foreignCursor = cursor !== null && cursor !== '' && cursor !== '0' && cursor !== known.cursor;
    if (authorized && request.method === 'GET' && !request.body && foreignCursor && request.path.startsWith('/v1/') && response.status !== 400) {
      violation('rest: a cursor reelay did not hand out was not a 400', request, response);
    }
  }
}

async function send(request: BadRequest): Promise<void> {
  const base = request.target === 'rest' ? stack.service.restUrl : stack.service.mcpUrl;
  tried++;
  judge(request, await rawRequest(base, request));
}

before(async () => {
  stack = await startStack();
  const store = await openStore({ dataDir: stack.dataDir });
  const keys = createKeyService({ store });
  const revoked = await keys.create({ name: 'revoked' });
  await keys.revoke(revoked.record.id);
  const expired = await keys.create({ name: 'expired', expiresAt: new Date(Date.now() - 60_000) });
  await store.close();
  const username = stack.emulator.manifest.users.manyVideos;
  const page = await fetch(`${stack.service.restUrl}/v1/platform/users/${username}/videos?count=5`, { headers: { authorization: `Bearer ${stack.key}` } });
  const cursor = ((await page.json()) as { data: { nextCursor: string } }).data.nextCursor;
  known = { key: stack.key, revokedKey: revoked.key, expiredKey: expired.key, username, videoId: stack.emulator.manifest.videos.withReplies.id, cursor };
});

after(async () => {
  const count = (kind: string) => violations[kind]?.length ?? 0;
  printFigures('bad input', {
    'inputs tried': tried,
    'REST answers by status': statuses.rest,
    'MCP answers by status': statuses.mcp,
    'token endpoint answers by status': statuses.oauth,
    'violations by class': Object.fromEntries(Object.keys(violations).map((k) => [k, count(k)])),
    'edge-format issues by class': Object.fromEntries(Object.keys(known_issues).map((k) => [k, known_issues[k].length])),
    'secret leaks': leaks.length,
  });
  const fivexx = [statuses.rest, statuses.mcp, statuses.oauth].flatMap((byStatus) => Object.entries(byStatus ?? {})).filter(([s]) => Number(s) >= 500);
  recordTotals({ requests: tried, badInputs: tried, unexpected5xx: fivexx.reduce((n, [, c]) => n + c, 0), crashes: stack?.service.alive() ? 0 : 1 });
  await stack?.close();
});

test('5,000+ generated hostile requests each get a 4xx in their edge format, never a 5xx or a stack trace', async () => {
  await fc.assert(fc.asyncProperty(restRequests(known), async (r) => void (await send(r))), { numRuns: RUNS.rest, seed: 20251121 });
  await fc.assert(fc.asyncProperty(mcpRequests(known), async (r) => void (await send(r))), { numRuns: RUNS.mcp, seed: 20251122 });
  await fc.assert(fc.asyncProperty(oauthRequests(), async (r) => void (await send(r))), { numRuns: RUNS.oauth, seed: 20251123 });
  assert.ok(tried >= 5000, `only ${tried} inputs tried`);
  const found = Object.entries(violations).map(([kind, list]) => `${kind} (${list.length}):\n  ${list.filter(Boolean).join('\n  ')}`);
  assert.deepEqual(found, [], found.join('\n'));
});

test('parser-level errors, CONNECT and MCP error-handler answers use the edge format', () => {
  const found = Object.entries(known_issues).map(([kind, list]) => `${kind} (${list.length}):\n  ${list.filter(Boolean).join('\n  ')}`);
  assert.deepEqual(found, [], found.join('\n'));
});

test('the service is still healthy after the hostile inputs and answers a valid request', async () => {
  assert.ok(stack.service.alive(), 'the service process exited');
  const health = await fetch(`${stack.service.restUrl}/healthz`);
  assert.equal(health.status, 200);
  const ok = await fetch(`${stack.service.restUrl}/v1/platform/users/${known.username}`, { headers: { authorization: `Bearer ${known.key}` } });
  assert.equal(ok.status, 200);
});

test('no key, token, cookie or authorization header appears in answers or in the service logs', () => {
  const secrets = [known.key, known.revokedKey, known.expiredKey, ...stack.proxy.cookieValues()];
  const all = [...leaks, ...findLeaks('service logs', stack.service.logs(), secrets)];
  assert.deepEqual(all, []);
});

/** Resolves once the service's log file mentions `marker` (a file-change event, not a timer); bounded. */
async function logMentions(marker: string, boundMs = 5_000): Promise<void> {
  if (stack.service.logs().includes(marker)) return;
  const watcher = watch(stack.service.stdoutPath);
  const timer = setTimeout(() => watcher.close(), boundMs);
  try {
    for await (const _ of on(watcher, 'change', { close: ['close'] })) if (stack.service.logs().includes(marker)) return;
  } finally {
    clearTimeout(timer);
    watcher.close();
  }
}

test('a key a client puts in a REST query string is not written to the request log', async () => {
  const marker = `query-key-${Date.now()}`;
  const response = await fetch(`${stack.service.restUrl}/v1/platform/users/${known.username}?api_key=${known.key}`, { headers: { 'x-request-id': marker } });
  await response.arrayBuffer();
  await logMentions(marker);
  // The request was logged (else the check below would prove nothing), and without the key.
  assert.ok(stack.service.logs().includes(marker), 'the request never reached the log');
  assert.deepEqual(findLeaks('service logs', stack.service.logs(), [known.key]), []);
});
