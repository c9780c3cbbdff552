// Store outages under steady load: `reelay serve` on PostgreSQL and Redis reached through TCP relays
// this test cuts and restores (the shared servers are never touched). Redis is cut, then restored,
// then PostgreSQL: no crash, only 200 (and 503 store_unavailable while the database is away), each
// outage and recovery logged once, and full service afterwards, with no restart.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { datasetPicks } from '../../bench/lib/measure.ts';
import { claimBacking, skipWithoutBacking, type Backing } from '../scale/backing.ts';
import { startTcpRelay, viaRelay, type TcpRelay } from '../helpers/tcp-relay.ts';
import { startStack, STACK_TRACE, type Stack } from './helpers/stack.ts';
import { findLeaks } from './helpers/secrets.ts';
import { bump, printFigures, recordTotals } from './helpers/figures.ts';

const WORKERS = 8;
const PHASE_MS = 6000;
/** Past the database guard's 2 s pause and Redis's 2 s reconnect backoff, with room for a slow machine. */
const RECOVERY_BOUND_MS = 15_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** Generous against machine speed, far below the 30 s a request used to wait on a dead Redis. */
const ANSWER_BOUND_MS = 5000;

type Sample = { path: string; startedMs: number; endedMs: number; status: number; code: string | undefined; body: string };

const claimed = await claimBacking();
const backing = 'unavailable' in claimed ? undefined : (claimed as Backing);
let stack: Stack;
let redisRelay: TcpRelay;
let pgRelay: TcpRelay;
const samples: Sample[] = [];
const violations: string[] = [];
const marks: Record<string, number> = {};
const readyz: Record<string, { status: number; body: unknown }> = {};
let stopAt = Number.POSITIVE_INFINITY;

const ids = datasetPicks(1).videoIds(4000);
// Half the requests go to a small warm set (cache hits, first from Redis, then from memory), half to fresh items.
const warm = ids.slice(0, 20).map((id) => `/v1/platform/videos/${id}`);
const fresh = ids.slice(20).map((id) => `/v1/platform/videos/${id}`);

async function get(path: string, authorized = true) {
  const response = await fetch(`${stack.service.restUrl}${path}`, {
    headers: authorized ? { authorization: `Bearer ${stack.key}` } : {},
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const body = await response.text();
  let json: any;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, body };
}

async function worker(id: number): Promise<void> {
  for (let i = 0; i < 1_000_000 && Date.now() < stopAt; i++) {
    const path = i % 2 === 0 ? warm[(i * 7 + id) % warm.length] : fresh[(i * WORKERS + id) % fresh.length];
    const startedMs = Date.now();
    try {
      const answer = await get(path);
      samples.push({ path, startedMs, endedMs: Date.now(), status: answer.status, code: answer.json?.code, body: answer.body });
      if (STACK_TRACE.test(answer.body)) violations.push(`${path}: stack trace in body`);
    } catch (error) {
      violations.push(`${path}: no answer (${(error as Error).name})`);
    }
  }
}

async function readiness(label: string) {
  const answer = await get('/readyz', false);
  readyz[label] = { status: answer.status, body: answer.json };
  return answer;
}

/** Polls (bounded) until `check` holds; returns the time it first held. */
async function until(check: () => Promise<boolean>, label: string): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < RECOVERY_BOUND_MS) {
    if (await check()) return Date.now();
    await delay(100);
  }
  throw new Error(`${label}: not recovered within ${RECOVERY_BOUND_MS} ms`);
}

const within = (s: Sample, from: number, to: number) => s.startedMs >= from && s.endedMs <= to;

before(async () => {
  if (!backing) return;
  redisRelay = await startTcpRelay({ port: Number(new URL(backing.redisUrl).port || 6379) });
  pgRelay = await startTcpRelay({ port: Number(new URL(backing.databaseUrl).port || 5432) });
  stack = await startStack({
    env: { REELAY_REDIS_URL: viaRelay(backing.redisUrl, redisRelay), REELAY_DATABASE_URL: viaRelay(backing.databaseUrl, pgRelay) },
  });
});

after(async () => {
  if (!backing) return;
  const byStatus: Record<string, number> = {};
  for (const s of samples) bump(byStatus, s.code ? `${s.status} ${s.code}` : s.status);
  printFigures('store outages', {
    requests: samples.length,
    'answers by status': byStatus,
    'phase starts (ms after load began)': Object.fromEntries(Object.entries(marks).map(([k, v]) => [k, v - marks.load])),
    'slowest answers (ms, started ms after load began, status)': samples
      .toSorted((a, b) => (b.endedMs - b.startedMs) - (a.endedMs - a.startedMs))
      .slice(0, 5)
      .map((s) => `${s.endedMs - s.startedMs} @${s.startedMs - marks.load} ${s.status}`)
      .join(', '),
    violations: violations.length,
  });
  // While the database is away, 503 store_unavailable is the expected answer; any other 5xx is not.
  const unexpected5xx = samples.filter((s) => s.status >= 500 && !(s.status === 503 && s.code === 'store_unavailable')).length;
  recordTotals({ requests: samples.length, unexpected5xx, crashes: stack?.service.alive() ? 0 : 1 });
  await stack?.close();
  await redisRelay?.close();
  await pgRelay?.close();
  await backing.release();
});

test('Redis then PostgreSQL cut and restored under steady load: no crash, only expected statuses, recovery by itself', async (t) => {
  if (!backing) {
    return skipWithoutBacking(t, 'store outage soak', (claimed as { unavailable: string }).unavailable);
  }
  marks.load = Date.now();
  const load = Promise.all(Array.from({ length: WORKERS }, (_, id) => worker(id)));
  await delay(PHASE_MS / 2);

  marks.redisCut = Date.now();
  redisRelay.cut();
  await delay(PHASE_MS);
  await readiness('redis cut');
  marks.redisRestored = Date.now();
  redisRelay.restore();
  marks.redisRecovered = await until(async () => (await readiness('redis restored')).json?.redis === 'ok', 'redis');

  await delay(PHASE_MS / 2);
  marks.pgCut = Date.now();
  pgRelay.cut();
  await delay(PHASE_MS);
  await readiness('database cut');
  marks.pgRestored = Date.now();
  pgRelay.restore();
  marks.pgRecovered = await until(async () => (await get(fresh[fresh.length - 1 - samples.length % 100])).status === 200, 'database');
  await delay(PHASE_MS / 2);
  stopAt = Date.now();
  await load;

  assert.ok(stack.service.alive(), 'the service process died');
  assert.deepEqual(violations.slice(0, 20), []);

  // Only 200 and, while the database was away, 503 store_unavailable.
  for (const s of samples) {
    const expected = s.status === 200 || (s.status === 503 && s.code === 'store_unavailable' && s.endedMs >= marks.pgCut && s.startedMs <= marks.pgRecovered);
    if (!expected) violations.push(`${s.path} -> ${s.status} ${s.body.slice(0, 200)}`);
  }
  assert.deepEqual(violations.slice(0, 20), []);

  const slow = samples.filter((s) => s.endedMs - s.startedMs >= ANSWER_BOUND_MS);
  assert.deepEqual(slow.slice(0, 5).map((s) => `${s.path} took ${s.endedMs - s.startedMs} ms`), [], 'no answer waits on a store that is away');

  const redisDown = samples.filter((s) => within(s, marks.redisCut, marks.redisRestored));
  assert.ok(redisDown.length > 0 && redisDown.every((s) => s.status === 200), 'every request is answered while Redis is cut');
  const pgDown = samples.filter((s) => within(s, marks.pgCut, marks.pgRestored));
  assert.ok(pgDown.length > 0 && pgDown.every((s) => s.code === 'store_unavailable'), 'no key is accepted unchecked while the database is cut');
  const afterAll = samples.filter((s) => s.startedMs >= marks.pgRecovered);
  assert.ok(afterAll.length > 0 && afterAll.every((s) => s.status === 200), 'full service after both recoveries');

  assert.equal(readyz['redis cut'].status, 200, 'a node without Redis stays ready');
  assert.deepEqual(readyz['redis cut'].body, { status: 'degraded', database: 'ok', redis: 'down' });
  assert.equal(readyz['database cut'].status, 503);
  assert.equal((readyz['database cut'].body as any).database, 'down');
  const final = await readiness('end');
  assert.deepEqual(final.json, { status: 'ready', database: 'ok', redis: 'ok' });
});

test('each outage and each recovery is logged once; no unhandled error event and no secret in the logs', (t) => {
  if (!backing) return t.skip('no PostgreSQL and Redis');
  const logs = stack.service.logs();
  const count = (text: string) => logs.split(text).length - 1;
  assert.equal(count('redis unreachable'), 1);
  assert.equal(count('redis reachable again'), 1);
  assert.equal(count('database unreachable'), 1);
  assert.equal(count('database reachable again'), 1);
  assert.equal(count('Unhandled error event'), 0);
  assert.equal(count('unhandledRejection'), 0);
  assert.deepEqual(findLeaks('service logs', logs, [stack.key]), []);
});
