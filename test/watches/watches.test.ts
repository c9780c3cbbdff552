// Watches end to end through REST, the emulator's control endpoints and a local webhook receiver:
// events arrive signed per Standard Webhooks, within one interval; history comes in order as JSON,
// CSV and an SVG chart; failing receivers get the event again until it lands; other keys see nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { Webhook } from 'standardwebhooks';
import { startStack, type Stack } from '../helpers/stack.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { allElements, parseXml } from '../helpers/xml.ts';

const settled = new EventEmitter();
let stack: Stack;
let receiver: Receiver;
let otherKey: string;

before(async () => {
  stack = await startStack({
    config: { watchMinInterval: '1s', webhookAllowPrivate: '1', webhookRetryBase: '20ms', webhookRetryFor: '3s' },
    services: { watchEvents: (e) => settled.emit(e.kind, e.id) },
  });
  receiver = await startReceiver();
  otherKey = (await stack.app.services.keys.create({ name: 'other' })).key;
});
after(async () => {
  await stack.close();
  await receiver.close();
});

type Answer = { status: number; json: any; body: string; headers: Record<string, unknown> };

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}, key = stack.key): Promise<Answer> {
  const response = await stack.app.rest.inject({ method, url, headers: { authorization: `Bearer ${key}`, ...headers }, ...(body === undefined ? {} : { payload: body as object }) });
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, json, body: response.body, headers: response.headers };
}

async function control(method: string, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${stack.emulator.url}/__emulator${path}`, { method, body: JSON.stringify(body) });
  assert.ok(response.ok, `${method} ${path}: ${response.status}`);
  return response.json();
}

/** Resolves after `count` more runs of the watch have been recorded; bounded. */
function runsOf(watchId: string, count: number, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    const timer = setTimeout(() => {
      settled.off('run', onRun);
      reject(new Error(`watch ${watchId}: ${seen} of ${count} runs within ${timeoutMs} ms`));
    }, timeoutMs);
    function onRun(id: string) {
      if (id !== watchId || ++seen < count) return;
      clearTimeout(timer);
      settled.off('run', onRun);
      resolve();
    }
    settled.on('run', onRun);
  });
}

function verified(secret: string, r: { body: string; headers: Record<string, unknown> }): any {
  const headers = { 'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']) };
  return new Webhook(secret).verify(r.body, headers);
}

async function createUserWatch(target: string, extra: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
  const firstRun = new Promise<string>((resolve) => settled.once('run', resolve));
  const created = await call('POST', '/v1/watches', { kind: 'user', target, every: '1s', webhook: { url: receiver.url }, ...extra });
  assert.equal(created.status, 201, created.body);
  assert.match(created.json.data.webhook.secret, /^whsec_/);
  // The baseline run: events are changes between runs, so the first one only records.
  const id = created.json.data.id as string;
  if ((await firstRun) !== id) await runsOf(id, 1);
  return { id, secret: created.json.data.webhook.secret };
}

test('a user watch gets video.published within one interval, then live.started and live.ended, each signed', async () => {
  const username = stack.emulator.manifest.users.notLive;
  const { id, secret } = await createUserWatch(username);

  const publishedAt = Date.now();
  const { id: videoId } = await control('POST', `/users/${username}/videos`, {});
  const published = await receiver.waitFor((r) => r.json?.type === 'video.published' && r.json.data.watch.id === id, 'video.published');
  const event = verified(secret, published);
  assert.equal(event.data.object.type, 'Video');
  assert.match(event.data.object.id, new RegExp(`/video/${videoId}$`));
  // Within one interval: reported no later than by the first run that started after the publication.
  const history = await call('GET', `/v1/watches/${id}/history?from=${publishedAt}`);
  assert.ok(Date.parse(event.data.runAt) <= Date.parse(history.json.data.points[0].at));

  await control('PUT', `/users/${username}/live`, { live: true });
  const started = verified(secret, await receiver.waitFor((r) => r.json?.type === 'live.started' && r.json.data.watch.id === id, 'live.started'));
  assert.equal(started.data.object.isLive, true);
  await control('PUT', `/users/${username}/live`, { live: false });
  const ended = verified(secret, await receiver.waitFor((r) => r.json?.type === 'live.ended' && r.json.data.watch.id === id, 'live.ended'));
  assert.equal(ended.data.object.internalId, started.data.object.internalId);
  assert.equal(receiver.requests.filter((r) => r.json?.data?.watch?.id === id && r.json.type === 'video.published').length, 1);
});

test('history comes in time order as JSON and as CSV with Accept: text/csv', async () => {
  const created = await call('POST', '/v1/watches', { kind: 'video', target: stack.emulator.manifest.videos.withReplies.id, every: '1s' });
  assert.equal(created.status, 201);
  assert.equal(created.json.data.webhook, null);
  const id = created.json.data.id as string;
  await runsOf(id, 3);
  const json = await call('GET', `/v1/watches/${id}/history`);
  const points = json.json.data.points as { at: string; viewCount: number }[];
  assert.ok(points.length >= 3);
  const times = points.map((p) => Date.parse(p.at));
  assert.deepEqual(times, [...times].sort((a, b) => a - b));
  assert.equal(new Set(times).size, times.length);
  assert.ok(points.every((p) => typeof p.viewCount === 'number'));

  const csv = await call('GET', `/v1/watches/${id}/history?to=${encodeURIComponent(points.at(-1)!.at)}`, undefined, { accept: 'text/csv' });
  assert.match(String(csv.headers['content-type']), /^text\/csv/);
  const lines = csv.body.trimEnd().split('\r\n');
  assert.equal(lines[0], 'at,commentCount,likeCount,saveCount,shareCount,viewCount');
  assert.deepEqual(lines.slice(1).map((l) => l.split(',')[0]), points.map((p) => p.at));
});

test('history is also an SVG chart: one panel per metric, one point per snapshot, by Accept or ?format=svg; other types are 406', async () => {
  const target = stack.emulator.manifest.videos.withReplies.id;
  const created = await call('POST', '/v1/watches', { kind: 'video', target, every: '1s' });
  const id = created.json.data.id as string;
  await runsOf(id, 2);
  const points = (await call('GET', `/v1/watches/${id}/history`)).json.data.points as { at: string }[];
  const range = `to=${encodeURIComponent(points.at(-1)!.at)}`;
  const chart = await call('GET', `/v1/watches/${id}/history?${range}`, undefined, { accept: 'image/svg+xml' });
  assert.equal(chart.status, 200);
  assert.equal(chart.headers['content-type'], 'image/svg+xml; charset=utf-8');
  assert.equal(chart.headers['content-security-policy'], "default-src 'none'");
  const svg = parseXml(chart.body);
  assert.equal(svg.children.find((e) => e.name === 'title')?.text, `video ${target} (${id})`);
  const panels = allElements(svg).filter((e) => e.name === 'g' && e.attributes.class === 'panel');
  assert.deepEqual(panels.map((p) => p.attributes['data-metric']), ['commentCount', 'likeCount', 'saveCount', 'shareCount', 'viewCount']);
  for (const panel of panels) {
    const pairs = panel.children.find((e) => e.name === 'polyline')!.attributes.points.trim().split(/\s+/);
    assert.equal(pairs.length, points.length, panel.attributes['data-metric']);
  }
  assert.equal((await call('GET', `/v1/watches/${id}/history?${range}&format=svg`)).body, chart.body);

  const refused = await call('GET', `/v1/watches/${id}/history`, undefined, { accept: 'application/xml' });
  assert.equal(refused.status, 406);
  assert.equal(refused.json.code, 'not_acceptable');
  assert.deepEqual(refused.json.available, ['application/json; charset=utf-8', 'text/csv; charset=utf-8', 'image/svg+xml; charset=utf-8']);
  const badFormat = await call('GET', `/v1/watches/${id}/history?format=png`);
  assert.equal(badFormat.status, 400);
  assert.deepEqual(badFormat.json.params, [{ name: 'format', reason: 'unknown format' }]);
  assert.equal((await call('DELETE', `/v1/watches/${id}`)).status, 204);
});

test('moved counts show in the next snapshot', async () => {
  const videoId = stack.emulator.manifest.videos.pinned;
  const created = await call('POST', '/v1/watches', { kind: 'video', target: videoId, every: '1s' });
  const id = created.json.data.id as string;
  await runsOf(id, 1);
  await control('PATCH', `/videos/${videoId}`, { playCount: 987_654 });
  // A run that started before the change may end after it: wait for one that started after.
  const from = Date.now();
  let points: { viewCount: number }[] = [];
  for (let runs = 0; points.length === 0 && runs < 5; runs++) {
    await runsOf(id, 1);
    points = (await call('GET', `/v1/watches/${id}/history?from=${from}`)).json.data.points;
  }
  assert.equal(points.at(-1)?.viewCount, 987_654);
});

test('revoking the key that created a watch pauses it at its next run', async () => {
  const { key, record } = await stack.app.services.keys.create({ name: 'revoked-later' });
  const created = await call('POST', '/v1/watches', { kind: 'video', target: stack.emulator.manifest.videos.pinned, every: '1s' }, {}, key);
  assert.equal(created.status, 201, created.body);
  const id = created.json.data.id as string;
  await runsOf(id, 1);
  const owner = `key:${record.id}`;
  const before = (await stack.app.services.watches.history(owner, id, {})).points.length;
  assert.ok(before >= 1);
  assert.equal(await stack.app.services.keys.revoke(record.id), 1);
  assert.equal((await call('GET', `/v1/watches/${id}`, undefined, {}, key)).status, 401, 'the revoked key itself is refused');
  // Runs claimed before the revocation may still record; the first run after it pauses the watch.
  for (let runs = 0; runs < 5 && (await stack.app.services.watches.get(owner, id)).status === 'active'; runs++) await runsOf(id, 1);
  const watch = await stack.app.services.watches.get(owner, id);
  assert.equal(watch.status, 'paused');
  assert.equal(watch.pausedReason, 'the API key that created this watch was revoked or has expired');
  assert.equal(watch.nextRunAt, null);
  // The pausing run asked the platform nothing and recorded no snapshot; a run that may have been
  // claimed just before the revocation is the only one that can add to the history.
  const after = (await stack.app.services.watches.history(owner, id, {})).points.length;
  assert.ok(after <= before + 1, `${after - before} snapshots after the revocation`);
  assert.equal(watch.failures, 0, 'a revoked owner is not a failure of the target');
});

test('a receiver that fails three times then succeeds gets the event exactly once more', async () => {
  const username = stack.emulator.manifest.users.hiddenLikes;
  const { id, secret } = await createUserWatch(username);
  let failuresLeft = 3;
  receiver.answer = (r) => (r.json?.data?.watch?.id === id && r.json.type === 'user.changed' && failuresLeft-- > 0 ? 500 : 204);
  await control('PATCH', `/users/${username}`, { nickname: 'Changed once' });
  const success = await receiver.waitFor((r) => r.json?.data?.watch?.id === id && r.json.type === 'user.changed' && r.status === 204, 'user.changed delivered');
  const messageId = success.headers['webhook-id'];
  assert.equal(verified(secret, success).data.changes.name.to, 'Changed once');
  // A later event proves the queue moved on; by then the first one must have arrived exactly 4 times.
  await control('PATCH', `/users/${username}`, { signature: 'second change' });
  await receiver.waitFor((r) => r.json?.data?.watch?.id === id && r.json.type === 'user.changed' && r.json.data.changes.summary?.to === 'second change', 'second user.changed');
  const attempts = receiver.requests.filter((r) => r.headers['webhook-id'] === messageId);
  assert.deepEqual(attempts.map((r) => r.status), [500, 500, 500, 204]);
  const deliveries = await call('GET', `/v1/watches/${id}/deliveries`);
  const first = deliveries.json.data.find((d: any) => d.id === messageId);
  assert.equal(first.status, 'delivered');
  assert.equal(first.attempts, 4);
  receiver.answer = () => 204;
});

test('a delivery that keeps failing is kept as failed, listed, and redelivered on request', async () => {
  const username = stack.emulator.manifest.users.hiddenFollowers;
  const { id } = await createUserWatch(username);
  receiver.answer = (r) => (r.json?.data?.watch?.id === id ? 503 : 204);
  const gaveUp = new Promise<void>((resolve) => {
    const check = async () => {
      const list = await call('GET', `/v1/watches/${id}/deliveries?status=failed`);
      if (list.json.data.length > 0) {
        settled.off('delivery', check);
        resolve();
      }
    };
    settled.on('delivery', check);
  });
  await control('PATCH', `/users/${username}`, { nickname: 'Never heard' });
  await gaveUp;
  const failed = (await call('GET', `/v1/watches/${id}/deliveries?status=failed`)).json.data[0];
  assert.equal(failed.event, 'user.changed');
  assert.match(failed.lastError, /HTTP 503/);
  assert.ok(failed.attempts >= 2);
  receiver.answer = () => 204;
  const again = await call('POST', `/v1/watches/${id}/deliveries/${failed.id}/redeliver`);
  assert.equal(again.status, 202);
  const landed = await receiver.waitFor((r) => r.headers['webhook-id'] === failed.id && r.status === 204, 'redelivery');
  assert.equal(landed.json.data.changes.name.to, 'Never heard');
});

test("another key's requests are 404 on every watch route", async () => {
  const created = await call('POST', '/v1/watches', { kind: 'tag', target: stack.emulator.manifest.tags.popular, every: '1m' });
  const id = created.json.data.id as string;
  for (const [method, url] of [['GET', `/v1/watches/${id}`], ['PATCH', `/v1/watches/${id}`], ['DELETE', `/v1/watches/${id}`], ['GET', `/v1/watches/${id}/history`], ['GET', `/v1/watches/${id}/deliveries`]] as const) {
    const answer = await call(method, url, method === 'PATCH' ? { every: '2m' } : undefined, {}, otherKey);
    assert.equal(answer.status, 404, `${method} ${url}`);
    assert.equal(answer.json.code, 'not_found');
  }
  assert.deepEqual((await call('GET', '/v1/watches', undefined, {}, otherKey)).json.data, []);
  assert.equal((await call('GET', `/v1/watches/${id}`)).status, 200);
  assert.equal((await call('DELETE', `/v1/watches/${id}`)).status, 204);
  assert.equal((await call('GET', `/v1/watches/${id}`)).status, 404);
});

test('a webhook to 169.254.169.254 is refused even when private addresses are allowed', async () => {
  const refused = await call('POST', '/v1/watches', { kind: 'user', target: 'someone', every: '1m', webhook: { url: 'http://169.254.169.254/latest/meta-data/' } });
  assert.equal(refused.status, 400);
  assert.equal(refused.json.code, 'invalid_request');
  assert.match(refused.json.detail, /link-local/);
});

test('bad watches are 400 problems naming the member', async () => {
  const cases: [unknown, RegExp][] = [
    [{ kind: 'user', target: 'someone', every: '500ms' }, /every must be between 1s/],
    [{ kind: 'user', target: 'someone', every: 'often' }, /every must be a whole number/],
    [{ kind: 'planet', target: 'x', every: '1m' }, /kind/],
    [{ kind: 'video', target: 'not-digits', every: '1m' }, /videoId/],
    [{ kind: 'user', target: 'someone', every: '1m', extra: 1 }, /unknown member/],
  ];
  for (const [body, detail] of cases) {
    const answer = await call('POST', '/v1/watches', body);
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.match(answer.json.detail, detail);
  }
});
