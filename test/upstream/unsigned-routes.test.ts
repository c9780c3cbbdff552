// When the platform refuses natively signed list calls and no browser is available, user videos
// (newest first) still come through the unsigned creator feed, and reposts and likes through
// their unsigned variants (PLATFORM.md §2.3, §5.2). Other orders say clearly they cannot be served.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../emulator/server.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const REFUSED = ['/api/post/item_list/', '/api/repost/item_list/', '/api/favorite/item_list/'];
const PAGE_LIMIT = 200;

let emulator: Emulator;
/** Reads only while no fault is set: what the signed lists answer. */
let reference: Stack;
const stacks: Stack[] = [];

before(async () => {
  emulator = await startEmulator({ seed: 3 });
  reference = await startStack({ emulatorInstance: emulator });
});

after(async () => {
  await Promise.all([reference?.close(), ...stacks.map((s) => s.close())]);
  await emulator?.close();
});

/** A service with nothing cached yet and no Chromium. */
async function freshStack(): Promise<Stack> {
  const stack = await startStack({ emulatorInstance: emulator, config: { browser: 'off' } });
  stacks.push(stack);
  return stack;
}

type Item = { id: string; published?: string };

/** Every item of a collection, following nextCursor from cursor=0. */
async function readAll(stack: Stack, path: string, count: number): Promise<{ items: Item[]; cursors: string[] }> {
  const items: Item[] = [];
  const cursors: string[] = [];
  let url = `${path}${path.includes('?') ? '&' : '?'}count=${count}`;
  for (let pages = 0; pages < PAGE_LIMIT; pages++) {
    const res = await stack.get(url);
    assert.equal(res.status, 200, `${url}: ${res.body.slice(0, 300)}`);
    const page = res.json.data;
    items.push(...page.orderedItems);
    if (page.nextCursor === undefined) return { items, cursors };
    cursors.push(page.nextCursor);
    const next = new URL(page.next);
    url = next.pathname + next.search;
  }
  assert.fail(`${path} did not end within ${PAGE_LIMIT} pages`);
}

function refuseSigned(): void {
  emulator.setFaults({ rules: REFUSED.map((path) => ({ path, probability: 1, kind: 'refuse_native' as const })) });
}

const ids = (items: Item[]) => items.map((item) => item.id);

describe('unsigned routes with the browser off', () => {
  test('user videos, newest first: every video once, in time order, through the creator feed', async () => {
    const username = emulator.manifest.users.public;
    emulator.setFaults({ rules: [] });
    const signed = await readAll(reference, `/v1/platform/users/${username}/videos`, 35);
    const stack = await freshStack();
    refuseSigned();
    const before = emulator.stats();
    const unsigned = await readAll(stack, `/v1/platform/users/${username}/videos`, 35);
    const after = emulator.stats();
    const creatorCalls = (after['/api/creator/item_list/'] ?? 0) - (before['/api/creator/item_list/'] ?? 0);
    assert.ok(creatorCalls > 0, 'the creator feed was used');
    assert.equal(new Set(ids(unsigned.items)).size, unsigned.items.length, 'no duplicates');
    assert.deepEqual([...ids(unsigned.items)].sort(), [...ids(signed.items)].sort(), 'the same videos as the signed list');
    const times = unsigned.items.map((item) => Date.parse(item.published ?? ''));
    assert.ok(times.every((t, i) => i === 0 || t <= times[i - 1]), 'newest first, by publication time');
    assert.ok(unsigned.cursors.length > 0, 'the list has more than one page');
    const switched = stack.logs.filter((line) => line.includes('another one answered'));
    assert.equal(switched.length, 1, 'the switch of route is logged once');
    assert.match(switched[0], /"route":"\/api\/creator\/item_list\/#unsigned"/);
  });

  test('a cursor minted by the creator feed continues there, even once the signed list answers again', async () => {
    const username = emulator.manifest.users.manyVideos;
    const stack = await freshStack();
    refuseSigned();
    const first = await stack.get(`/v1/platform/users/${username}/videos?count=20`);
    assert.equal(first.status, 200, first.body.slice(0, 300));
    emulator.setFaults({ rules: [] });
    const before = emulator.stats();
    const second = await stack.get(`/v1/platform/users/${username}/videos?count=20&cursor=${first.json.data.nextCursor}`);
    assert.equal(second.status, 200, second.body.slice(0, 300));
    const after = emulator.stats();
    assert.equal(after['/api/post/item_list/'] ?? 0, before['/api/post/item_list/'] ?? 0, 'the signed list was not asked');
    assert.ok((after['/api/creator/item_list/'] ?? 0) > (before['/api/creator/item_list/'] ?? 0));
    const overlap = ids(second.json.data.orderedItems).filter((id) => ids(first.json.data.orderedItems).includes(id));
    assert.deepEqual(overlap, []);
  });

  test('reposts and likes come through the unsigned variants with the same items', async () => {
    const paths = [
      `/v1/platform/users/${emulator.manifest.users.withReposts}/reposts`,
      `/v1/platform/users/${emulator.manifest.users.public}/likes`,
    ];
    for (const path of paths) {
      emulator.setFaults({ rules: [] });
      const signed = await readAll(reference, path, 30);
      const stack = await freshStack();
      refuseSigned();
      const unsigned = await readAll(stack, path, 30);
      assert.ok(signed.items.length > 0, path);
      assert.deepEqual(ids(unsigned.items), ids(signed.items), path);
    }
  });

  test('popular and oldest have no second route: a clear upstream_blocked, never another order', async () => {
    const username = emulator.manifest.users.manyVideos;
    const stack = await freshStack();
    refuseSigned();
    for (const order of ['popular', 'oldest']) {
      const res = await stack.get(`/v1/platform/users/${username}/videos?order=${order}`);
      assert.equal(res.status, 503, res.body.slice(0, 300));
      assert.equal(res.json.code, 'upstream_blocked');
      assert.match(res.json.detail, new RegExp(`order=${order}`));
    }
  });
});
