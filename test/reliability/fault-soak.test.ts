// Fault soak: steady load on a running `reelay serve` for two minutes while the emulator injects
// each fault kind on 10% of platform requests. Only 502/503/504 problem+json failures, no crash,
// bounded memory, stale answers for cached items, and full recovery once faults stop: within the
// breakers' half-open delay plus ten seconds of fresh probes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout } from 'node:timers/promises';
import { FAULT_KINDS } from '../../emulator/faults.ts';
import { defaultUpstreamConfig } from '../../src/upstream/config.ts';
import { datasetPicks } from '../../bench/lib/measure.ts';
import type { UpstreamSample } from '../../bench/lib/timing-proxy.ts';
import { startStack, STACK_TRACE, type Stack } from './helpers/stack.ts';
import { findLeaks } from './helpers/secrets.ts';
import { bump, printFigures, recordTotals } from './helpers/figures.ts';

const SOAK_MS = Number(process.env.RELIABILITY_SOAK_SECONDS ?? 120) * 1000;
const WORKERS = 16;
const REQUEST_TIMEOUT_MS = 30_000;
/**
 * An endpoint whose breaker opened in the last seconds of the soak stays open for its half-open
 * period, whatever the machine's speed: recovery is due by then. The figure printed is the real one.
 */
const RECOVERY_BOUND_MS = defaultUpstreamConfig.breaker.halfOpenAfterMs + 10_000;
const MB = 1024 * 1024;
/**
 * The service's JavaScript heap is capped for the soak, so a leak there ends in an out-of-memory
 * crash that the alive check sees, whatever the garbage collector's timing. RSS also holds native
 * memory (impit's HTTP stacks, buffers) that grows in steps with load, so it gets a ceiling that
 * only a runaway leak reaches, not a flatness check that depends on when memory is returned.
 */
const HEAP_CAP_MB = 192;
/** Larger than what the soak reads (its key set is bounded), so warm items stay cached to be served stale. */
const CACHE_BUDGET_MB = 64;
const RSS_CEILING_MB = 768;

let stack: Stack;
const statuses: Record<string, number> = {};
const faults: Record<string, number> = {};
const violations: string[] = [];
const rss: { atMs: number; mb: number }[] = [];
let requests = 0;
let unexpected5xx = 0;
/** RSS of the idle service, before warm-up: the soak's growth is measured from it. */
let idleRssMb = Number.NaN;
let staleAnswers = 0;
let warmFailures = 0;
const warmFailureExamples: string[] = [];
let recoveryMs = Number.NaN;
const bodies: string[] = [];

const picks = datasetPicks(1);
const warm = picks.videoIds(40).map((id) => `/v1/platform/videos/${id}`);
const ids = picks.videoIds(30_000);
// A bounded key set: after the first minute the cache holds all of it, so later RSS growth would be
// a leak; the short TTLs below keep the platform busy with refreshes all the same.
const coldVideos = ids.slice(40, 840).map((id) => `/v1/platform/videos/${id}`);
/** Never requested before the recovery check, so only a working platform path can answer them. */
const probeVideos = ids.slice(25_000).map((id) => `/v1/platform/videos/${id}`);
const coldPages = picks.usersWithVideos(5).slice(0, 100).map((u) => `/v1/platform/users/${u}/videos?count=10`);

async function get(path: string) {
  const response = await fetch(`${stack.service.restUrl}${path}`, {
    headers: { authorization: `Bearer ${stack.key}` },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: response.status, type: response.headers.get('content-type') ?? '', cache: response.headers.get('cache-status') ?? '', body: await response.text() };
}

/** What the proxy saw the emulator answer: the injected fault kinds, as observable on the wire. */
function classify(sample: UpstreamSample): string | undefined {
  if (sample.reset) return 'reset';
  if (sample.status === 429) return 'status_429';
  if (sample.status >= 500) return 'status_5xx';
  if (sample.head?.includes('<title>Please wait...</title>')) return 'waf';
  if (sample.head?.includes('verifyConfig')) return 'captcha';
  if (sample.status === 200 && sample.bytes === 0) return 'empty_200';
  if (sample.jsonValid === false) return 'malformed_json';
  if (/"(itemList|userInfo|userList|comments|itemInfo|challengeInfo|playList|data)V2"|webapp\.[\w.-]+-v2/.test(sample.head ?? '')) return 'changed_shape';
  if (sample.durationMs > 900) return 'latency or slow_body';
  return undefined;
}

function check(path: string, answer: Awaited<ReturnType<typeof get>>, isWarm: boolean): void {
  requests++;
  bump(statuses, answer.status);
  if (answer.cache.includes('fwd=stale')) staleAnswers++;
  if (answer.status >= 400 && bodies.length < 2000) bodies.push(answer.body);
  if (answer.status >= 500) {
    const problem = answer.type.startsWith('application/problem+json');
    if (![502, 503, 504].includes(answer.status) || !problem) unexpected5xx++;
    if (![502, 503, 504].includes(answer.status) || !problem) violations.push(`${path} -> ${answer.status} ${answer.type} ${answer.body.slice(0, 200)}`);
  }
  if (STACK_TRACE.test(answer.body)) violations.push(`${path}: stack trace in body`);
  if (isWarm && answer.status !== 200) {
    warmFailures++;
    if (warmFailureExamples.length < 5) warmFailureExamples.push(`${path} -> ${answer.status} ${answer.body.slice(0, 160)}`);
  }
}

async function worker(id: number, deadline: number): Promise<void> {
  for (let i = 0; i < 1_000_000 && Date.now() < deadline; i++) {
    const pick = (i * WORKERS + id) % 10;
    const isWarm = pick < 4;
    const pool = isWarm ? warm : pick < 8 ? coldVideos : coldPages;
    const path = pool[(i * 7919 + id * 104_729) % pool.length];
    try {
      check(path, await get(path), isWarm);
    } catch (error) {
      violations.push(`${path}: no answer (${(error as Error).name})`);
    }
    if (id === 0 && i % 50 === 0) rss.push({ atMs: Date.now(), mb: stack.service.rssBytes() / MB });
  }
}

before(async () => {
  // Short freshness so warm items are past ttl + stale-while-revalidate during the soak and can
  // only be answered from stale-if-error when the platform fails.
  stack = await startStack({
    env: { REELAY_CACHE_TTL_FACTOR: '0.02', REELAY_UPSTREAM_TIMEOUT_MS: '3000', REELAY_LOG_LEVEL: 'info', REELAY_CACHE_MAX_BYTES: String(CACHE_BUDGET_MB * MB) },
    nodeFlags: [`--max-old-space-size=${HEAP_CAP_MB}`],
  });
  idleRssMb = stack.service.rssBytes() / MB;
  for (const path of warm) assert.equal((await get(path)).status, 200, `warm-up of ${path}`);
});

after(async () => {
  const first = rss.find((r) => r.atMs - rss[0].atMs > SOAK_MS / 2) ?? rss[0];
  const peakMb = Math.max(...rss.map((r) => r.mb));
  recordTotals({
    requests,
    faultsInjected: Object.entries(faults).filter(([kind]) => kind !== 'none').reduce((n, [, c]) => n + c, 0),
    unexpected5xx,
    crashes: stack?.service.alive() ? 0 : 1,
    peakRssGrowthMb: Math.round(peakMb - idleRssMb),
    rssBoundMb: CACHE_BUDGET_MB + 100,
  });
  printFigures('fault soak', {
    'soak seconds': SOAK_MS / 1000,
    requests,
    'answers by status': statuses,
    'platform requests by injected fault (as seen on the wire)': faults,
    'stale answers served': staleAnswers,
    'warm-item answers other than 200': warmFailures,
    'RSS MB at start / half-way / end': `${rss[0]?.mb.toFixed(1)} / ${first?.mb.toFixed(1)} / ${rss.at(-1)?.mb.toFixed(1)}`,
    'RSS MB peak': Math.round(Math.max(...rss.map((r) => r.mb))),
    'RSS MB every ~15 s': rss.filter((_, i) => i % Math.max(1, Math.floor(rss.length / 8)) === 0).map((r) => Math.round(r.mb)).join(' '),
    'recovery ms after faults stopped': Math.round(recoveryMs),
    violations: violations.length,
  });
  await stack?.close();
});

test('under 10% of every fault kind the service answers only 2xx/4xx or 502/503/504 problem+json, and stays up', async () => {
  stack.proxy.take();
  stack.emulator.setFaults({ rules: FAULT_KINDS.map((kind) => ({ path: '*', probability: 0.1, kind, latencyMs: 1500 })) });
  const deadline = Date.now() + SOAK_MS;
  await Promise.all(Array.from({ length: WORKERS }, (_, id) => worker(id, deadline)));
  stack.emulator.setFaults({ rules: [] });
  for (const sample of stack.proxy.take()) bump(faults, classify(sample) ?? 'none');
  assert.ok(stack.service.alive(), 'the service process died');
  assert.deepEqual(violations.slice(0, 20), []);
  for (const kind of ['reset', 'status_429', 'status_5xx', 'waf', 'captcha', 'empty_200', 'malformed_json']) {
    assert.ok((faults[kind] ?? 0) > 0, `no ${kind} fault was injected`);
  }
});

test('items the cache held are answered (stale if need be) throughout the faults', () => {
  assert.ok(staleAnswers > 0, 'no stale answer was served');
  assert.equal(warmFailures, 0, `${warmFailures} answers for cached items were not 200:\n${warmFailureExamples.join('\n')}`);
});

test(`memory stays bounded during the soak (heap capped at ${HEAP_CAP_MB} MB without a crash, RSS under ${RSS_CEILING_MB} MB)`, () => {
  assert.ok(stack.service.alive(), 'the service process died (out of memory?)');
  const peak = Math.max(...rss.map((r) => r.mb));
  assert.ok(peak < RSS_CEILING_MB, `RSS peaked at ${peak.toFixed(1)} MB`);
});

test('the service fully recovers once the faults stop, at the latest when open breakers half-open', async () => {
  const started = Date.now();
  let recovered = false;
  // Each round asks for ten items never asked before, so only a working platform path answers 200;
  // a round that fails waits a quarter second, so the probe list outlasts the bound.
  for (let round = 0; (round + 1) * 10 <= probeVideos.length && Date.now() - started < RECOVERY_BOUND_MS; round++) {
    const answers = await Promise.all(probeVideos.slice(round * 10, round * 10 + 10).map((path) => get(path)));
    if ((recovered = answers.every((a) => a.status === 200))) break;
    await setTimeout(250);
  }
  recoveryMs = Date.now() - started;
  assert.ok(recovered, `not recovered after ${recoveryMs} ms`);
});

test('no key, token, cookie or authorization header appears in logs or error bodies after the soak', () => {
  const secrets = [stack.key, ...stack.proxy.cookieValues()];
  const leaks = [...findLeaks('service logs', stack.service.logs(), secrets), ...bodies.flatMap((b) => findLeaks('error body', b, secrets))];
  assert.deepEqual(leaks, []);
});
