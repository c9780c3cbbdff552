// Clients that give up, against a running `reelay serve`: a storm of requests aborted mid-flight
// leaves the service healthy (platform requests cancelled, no slot left taken, nothing logged at
// fatal level), and an MCP tool call past the request deadline answers a tool error saying so.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { DEADLINE_MESSAGE } from '../../src/errors.ts';
import { startStack, type Stack } from './helpers/stack.ts';
import { recordTotals } from './helpers/figures.ts';

const STORM_CLIENTS = 50;
const USER_PATHS = ['/api/user/detail/', '/@*'];

let stack: Stack;
before(async () => {
  stack = await startStack({ env: { REELAY_REQUEST_DEADLINE_MS: '5000', REELAY_UPSTREAM_TIMEOUT_MS: '10000', REELAY_UPSTREAM_CONCURRENCY: '128' } });
});
let requests = 0;
let unexpected5xx = 0;
after(async () => {
  recordTotals({ requests, unexpected5xx, crashes: stack?.service.alive() ? 0 : 1 });
  // stop() fails the file when the service logged anything at fatal level.
  await stack?.close();
});

const slowProfiles = (latencyMs: number) =>
  stack.emulator.setFaults({ rules: USER_PATHS.map((path) => ({ path, probability: 1, kind: 'latency' as const, latencyMs })) });

/** Waits (bounded) for `condition`, re-checking after real I/O had a chance to happen. */
async function until(condition: () => boolean | Promise<boolean>, what: string, rounds = 500): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    if (await condition()) return;
    await delay(20);
  }
  assert.fail(`timed out waiting for ${what}`);
}

async function cancelledPlatformRequests(): Promise<number> {
  const text = await (await fetch(`${stack.service.restUrl}/metrics`)).text();
  let total = 0;
  for (const match of text.matchAll(/^reelay_upstream_requests_total\{[^}]*outcome="cancelled"[^}]*\} (\d+)/gm)) total += Number(match[1]);
  return total;
}

const get = (path: string, signal?: AbortSignal) =>
  fetch(`${stack.service.restUrl}${path}`, { headers: { authorization: `Bearer ${stack.key}` }, ...(signal ? { signal } : {}) });

test(`${STORM_CLIENTS} clients aborting mid-request leave the service healthy and their platform requests cancelled`, async () => {
  slowProfiles(8_000);
  const arrivedBefore = stack.emulator.stats()['/api/user/detail/'] ?? 0;
  const clients = Array.from({ length: STORM_CLIENTS }, (_, i) => {
    const controller = new AbortController();
    const answer = get(`/v1/platform/users/storm_${i}`, controller.signal).then(
      (response) => response.status,
      (error: Error) => error.name,
    );
    return { controller, answer };
  });
  // Mid-request: the platform has received some of them and answers none for seconds.
  await until(() => (stack.emulator.stats()['/api/user/detail/'] ?? 0) - arrivedBefore >= 8, 'platform requests in flight');
  for (const client of clients) client.controller.abort();
  const outcomes = await Promise.all(clients.map((c) => c.answer));
  assert.ok(outcomes.every((o) => o === 'AbortError'), `every client gave up first: ${[...new Set(outcomes)].join(', ')}`);
  await until(async () => (await cancelledPlatformRequests()) >= 8, 'the abandoned platform requests to be cancelled');

  stack.emulator.setFaults({ rules: [] });
  assert.equal((await fetch(`${stack.service.restUrl}/healthz`)).status, 200);
  // No slot of the profile endpoint is still held: a burst as large as the storm is served in full.
  const users = Object.values(stack.emulator.manifest.users).filter((u): u is string => typeof u === 'string');
  const burst = await Promise.all(Array.from({ length: STORM_CLIENTS }, (_, i) => get(`/v1/platform/users/${users[i % users.length]}`)));
  const statuses = burst.map((r) => r.status);
  requests += STORM_CLIENTS * 2 + 1;
  unexpected5xx += statuses.filter((s) => s >= 500).length;
  await Promise.all(burst.map((r) => r.arrayBuffer()));
  assert.ok(statuses.every((s) => s === 200 || s === 403 || s === 404), `burst after the storm: ${[...new Set(statuses)].join(', ')}`);
  assert.ok(stack.service.alive());
});

test('an MCP tool call past the request deadline is a tool error that says the deadline passed', async () => {
  slowProfiles(8_000);
  try {
    const response = await fetch(stack.service.mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'platform_get_user', arguments: { username: 'deadline_probe' } } }),
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { result: { isError: boolean; structuredContent: { code: string; message: string; deadlineMs: number } } };
    assert.equal(body.result.isError, true);
    assert.equal(body.result.structuredContent.code, 'upstream_timeout');
    assert.equal(body.result.structuredContent.message, DEADLINE_MESSAGE);
    assert.equal(body.result.structuredContent.deadlineMs, 5000);
  } finally {
    stack.emulator.setFaults({ rules: [] });
  }
});
