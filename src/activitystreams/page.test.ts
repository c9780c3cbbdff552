// Collection pages and the @context envelope.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCollectionPage, withContext } from './page.ts';

test('a page counts its items and omits next/nextCursor on the last page', () => {
  const last = toCollectionPage({ partOf: 'https://r.test/c', totalItems: 2, cursor: 'abc', items: [1, 2] });
  assert.deepEqual(last, { type: 'OrderedCollectionPage', partOf: 'https://r.test/c', totalItems: 2, itemCount: 2, cursor: 'abc', orderedItems: [1, 2] });
  assert.ok(!('next' in last) && !('nextCursor' in last));
  const more = toCollectionPage({ partOf: 'https://r.test/c', totalItems: 9, cursor: '0', nextCursor: 'n', next: 'https://r.test/c?cursor=n', items: [] });
  assert.equal(more.nextCursor, 'n');
  assert.equal(more.itemCount, 0);
  assert.equal(Object.keys(more).at(-1), 'orderedItems');
});

test('withContext puts the two-namespace @context first', () => {
  const doc = withContext({ type: 'Note', id: 'x' }, 'https://r.test/ns');
  assert.equal(Object.keys(doc)[0], '@context');
  assert.deepEqual(doc['@context'], ['https://www.w3.org/ns/activitystreams#', 'https://r.test/ns']);
});