// Paging invariants: from cursor=0 by nextCursor every item comes once, in order, no gaps or
// duplicates, whatever page size the platform uses; `count` is honoured exactly; the last page has no next.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useStack } from '../helpers/stack.ts';

const ctx = useStack();

const PAGE_LIMIT = 400;

async function readAll(path: string, count: number) {
  const ids: string[] = [];
  const seenCursors = new Set<string>();
  let url = `${path}${path.includes('?') ? '&' : '?'}count=${count}`;
  let last: any;
  for (let pages = 0; pages < PAGE_LIMIT; pages++) {
    const res = await ctx.stack.get(url);
    assert.equal(res.status, 200, `${url}: ${res.body}`);
    const page = res.json.data;
    ids.push(...page.orderedItems.map((item: any) => item.id));
    if (page.nextCursor === undefined) {
      assert.equal(page.next, undefined, 'the last page has neither next nor nextCursor');
      last = page;
      return { ids, last, pages: pages + 1 };
    }
    assert.equal(page.itemCount, count, 'every page but the last holds exactly count items');
    assert.ok(!seenCursors.has(page.nextCursor), 'cursors never repeat');
    seenCursors.add(page.nextCursor);
    const next = new URL(page.next);
    assert.equal(next.searchParams.get('cursor'), page.nextCursor);
    assert.equal(next.searchParams.get('count'), String(count));
    url = next.pathname + next.search;
  }
  assert.fail(`${path} did not end within ${PAGE_LIMIT} pages`);
}

describe('paging to the last page yields every item once', () => {
  const cases = () => [
    { name: 'user videos', path: `/v1/platform/users/${ctx.m.users.public}/videos`, count: 13, max: 35 },
    { name: 'user videos, oldest first', path: `/v1/platform/users/${ctx.m.users.public}/videos?order=oldest`, count: 35, max: 35 },
    { name: 'reposts', path: `/v1/platform/users/${ctx.m.users.withReposts ?? ctx.m.users.public}/reposts`, count: 7, max: 30 },
    { name: 'likes', path: `/v1/platform/users/${ctx.m.users.public}/likes`, count: 35, max: 35 },
    { name: 'collections', path: `/v1/platform/users/${ctx.m.users.withPlaylists ?? ctx.m.users.public}/collections`, count: 3, max: 30 },
    { name: 'followers', path: `/v1/platform/users/${ctx.m.users.fewFollowers ?? ctx.m.users.public}/followers`, count: 30, max: 30 },
    { name: 'comments', path: `/v1/platform/videos/${ctx.m.videos.withReplies.id}/comments`, count: 50, max: 50 },
    { name: 'replies', path: `/v1/platform/videos/${ctx.m.videos.withReplies.id}/comments/${ctx.m.videos.withReplies.commentId}/replies`, count: 3, max: 50 },
    { name: 'tag videos', path: `/v1/platform/tags/${ctx.m.tags.popular}`, count: 30, max: 30 },
  ];

  it('every collection, read with an odd page size and with the maximum', async () => {
    for (const c of cases()) {
      const small = await readAll(c.path, c.count);
      assert.ok(small.ids.length > 0, `${c.name} is not empty`);
      assert.equal(new Set(small.ids).size, small.ids.length, `${c.name}: no duplicates`);
      if (c.count !== c.max) {
        const big = await readAll(c.path, c.max);
        assert.deepEqual(big.ids, small.ids, `${c.name}: same items in the same order whatever the page size`);
      }
    }
  });

  it('totalItems equals the number of items read where the platform states a total', async () => {
    const path = `/v1/platform/videos/${ctx.m.videos.withReplies.id}/comments`;
    const all = await readAll(path, 50);
    assert.equal(all.last.totalItems, all.ids.length);
  });

  it('a reordered repost list is the platform list in reverse for order=oldest', async () => {
    const user = ctx.m.users.withReposts ?? ctx.m.users.public;
    const newest = await readAll(`/v1/platform/users/${user}/reposts`, 30);
    const oldest = await readAll(`/v1/platform/users/${user}/reposts?order=oldest`, 30);
    assert.deepEqual(oldest.ids, [...newest.ids].reverse());
  });
});
