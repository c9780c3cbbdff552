// The embedded store keeps watches across restarts: a node restarted on the same data directory
// still has the watch, its snapshots and its pending delivery, and delivers it. Private webhook
// addresses are refused unless the operator allows them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../../emulator/server.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { startReceiver, type Receiver } from './receiver.ts';

let emulator: Emulator;
let receiver: Receiver;
let dataDir: string;

before(async () => {
  emulator = await startEmulator({ seed: 7 });
  receiver = await startReceiver();
  dataDir = await mkdtemp(join(tmpdir(), 'reelay-watch-restart-'));
});
after(async () => {
  await emulator.close();
  await receiver.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function call(stack: Stack, key: string, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) {
  const response = await stack.app.rest.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(body === undefined ? {} : { payload: body as object }) });
  return { status: response.statusCode, json: JSON.parse(response.body || 'null') };
}

function nextEvent(events: EventEmitter, kind: string, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${kind} within ${timeoutMs} ms`)), timeoutMs);
    events.once(kind, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

test('a restart loses no watch, no snapshot and no pending delivery', async () => {
  const config = { dataDir, watchMinInterval: '1s', webhookAllowPrivate: '1', webhookRetryBase: '1s', webhookRetryFor: '1h' };
  const eventsA = new EventEmitter();
  const a = await startStack({ emulatorInstance: emulator, config, services: { watchEvents: (e) => eventsA.emit(e.kind, e.id) } });
  const username = emulator.manifest.users.public;
  receiver.answer = () => 503;
  const baseline = nextEvent(eventsA, 'run');
  const created = await call(a, a.key, 'POST', '/v1/watches', { kind: 'user', target: username, every: '1s', webhook: { url: receiver.url } });
  assert.equal(created.status, 201);
  const id = created.json.data.id as string;
  await baseline;
  await fetch(`${emulator.url}/__emulator/users/${username}`, { method: 'PATCH', body: JSON.stringify({ nickname: 'Before the restart' }) });
  const refused = await receiver.waitFor((r) => r.json?.type === 'user.changed', 'first attempt');
  const pendingId = String(refused.headers['webhook-id']);
  const pending = await call(a, a.key, 'GET', `/v1/watches/${id}/deliveries?status=pending`);
  assert.deepEqual(pending.json.data.map((d: { id: string }) => d.id), [pendingId]);
  const pointsBefore = (await call(a, a.key, 'GET', `/v1/watches/${id}/history`)).json.data.points as unknown[];
  await a.close();

  receiver.answer = () => 204;
  const b = await startStack({ emulatorInstance: emulator, config });
  try {
    const watch = await call(b, a.key, 'GET', `/v1/watches/${id}`);
    assert.equal(watch.status, 200);
    assert.equal(watch.json.data.target, username);
    const pointsAfter = (await call(b, a.key, 'GET', `/v1/watches/${id}/history`)).json.data.points as unknown[];
    assert.deepEqual(pointsAfter.slice(0, pointsBefore.length), pointsBefore);
    const landed = await receiver.waitFor((r) => r.headers['webhook-id'] === pendingId && r.status === 204, 'the pending delivery after the restart');
    assert.equal(landed.json.data.changes.name.to, 'Before the restart');
  } finally {
    await b.close();
  }
});

test('a webhook to 10.0.0.1 is refused without REELAY_WEBHOOK_ALLOW_PRIVATE', async () => {
  const stack = await startStack({ emulatorInstance: emulator });
  try {
    for (const url of ['http://10.0.0.1/hook', 'http://127.0.0.1:9/hook', 'http://169.254.169.254/']) {
      const answer = await call(stack, stack.key, 'POST', '/v1/watches', { kind: 'user', target: 'someone', every: '15m', webhook: { url } });
      assert.equal(answer.status, 400, url);
      assert.equal(answer.json.code, 'invalid_request');
    }
    const without = await call(stack, stack.key, 'POST', '/v1/watches', { kind: 'user', target: 'someone', every: '15m' });
    assert.equal(without.status, 201);
  } finally {
    await stack.close();
  }
});
