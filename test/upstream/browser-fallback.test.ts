// When the platform refuses natively signed calls on an endpoint, REELAY_BROWSER=fallback answers
// the same data through Chromium, whose page runs the emulator's SDK script (it signs in the page
// and sets a cookie only a page running it has); with the browser off the refusal stays visible.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../emulator/server.ts';
import { findChromium } from '../../src/upstream/transport/browser.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const chromium = await findChromium();
if (!chromium && process.env.CI === 'true') throw new Error('CI=true but no Chromium was found (apt-get install chromium)');
const skip = chromium ? false : 'no Chromium on this machine (apt-get install chromium)';

const REFUSED = ['/api/post/item_list/', '/api/comment/list/'];
let emulator: Emulator;
let reference: Stack;
let fallback: Stack;
let off: Stack;

before(async () => {
  if (!chromium) return;
  emulator = await startEmulator({ seed: 1 });
  reference = await startStack({ emulatorInstance: emulator });
  fallback = await startStack({ emulatorInstance: emulator, config: { browser: 'fallback', chromiumPath: chromium } });
  off = await startStack({ emulatorInstance: emulator, config: { browser: 'off' } });
});

after(async () => {
  await Promise.all([reference?.close(), fallback?.close(), off?.close()]);
  await emulator?.close();
});

function refuseNative(): void {
  emulator.setFaults({ rules: REFUSED.map((path) => ({ path, probability: 1, kind: 'refuse_native' as const })) });
}

test('with native signing refused, the browser fallback answers user videos and comments with the same data', { skip }, async () => {
  const username = emulator.manifest.users.manyVideos;
  const videoId = emulator.manifest.videos.withReplies.id;
  const paths = [`/v1/platform/users/${username}/videos?count=12`, `/v1/platform/videos/${videoId}/comments?count=10`];
  emulator.setFaults({ rules: [] });
  const expected = [];
  for (const path of paths) {
    const answer = await reference.get(path);
    assert.equal(answer.status, 200, path);
    expected.push(answer.json.data.orderedItems.map((item: { id: string }) => item.id));
  }
  refuseNative();
  for (const [i, path] of paths.entries()) {
    const answer = await fallback.get(path);
    assert.equal(answer.status, 200, `${path}: ${answer.body.slice(0, 200)}`);
    assert.deepEqual(answer.json.data.orderedItems.map((item: { id: string }) => item.id), expected[i], path);
  }
  const moved = fallback.app.services.client.browserEndpoints();
  assert.ok(moved.length >= 2, `endpoints on the browser: ${moved.join(', ')}`);
  assert.match(fallback.logs.join('\n'), /native signing refused: this endpoint now goes through the browser/);
});

test('with the browser off, the same refusal is answered as the platform blocking reelay', { skip }, async () => {
  refuseNative();
  const videoId = emulator.manifest.videos.withReplies.id;
  const answer = await off.get(`/v1/platform/videos/${videoId}/comments?count=10`);
  assert.equal(answer.status, 503, answer.body.slice(0, 200));
  assert.equal(answer.json.code, 'upstream_blocked');
});

test('endpoints that were not refused keep going natively', { skip }, async () => {
  refuseNative();
  const answer = await fallback.get(`/v1/platform/users/${emulator.manifest.users.manyVideos}`);
  assert.equal(answer.status, 200);
  assert.ok(!(fallback.app.services.client.browserEndpoints()).includes('userDetail'));
});
