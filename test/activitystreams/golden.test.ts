// Golden tests: mapping each real recorded sample reproduces the committed AS2 output exactly, and
// every field of that output has the JSON type service-spec.md gives it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { GOLDEN_CASES, GOLDEN_DIR } from './golden-cases.ts';
import { checkSpecTypes } from './spec-types.ts';

for (const golden of GOLDEN_CASES) {
  test(`mapping ${golden.sample} reproduces golden ${golden.name}.json`, () => {
    const expected: unknown = JSON.parse(readFileSync(new URL(`${golden.name}.json`, GOLDEN_DIR), 'utf8'));
    assert.deepEqual(JSON.parse(JSON.stringify(golden.build())), expected);
  });

  test(`every field of ${golden.name} has the spec's JSON type`, () => {
    const output = golden.build();
    const errors = checkSpecTypes(output, golden.page ? 'OrderedCollectionPage' : golden.kind);
    assert.deepEqual(errors, []);
    if (golden.page) {
      const items = (output as { orderedItems: unknown[] }).orderedItems;
      assert.ok(items.length > 0, 'the sample yields items');
      for (const item of items) assert.equal((item as { type: string }).type, golden.kind);
    }
  });
}

test('the spec type checker reports wrong types, unknown fields and bad timestamps', () => {
  const errors = checkSpecTypes(
    { type: 'Note', id: 'not a url', likeCount: 1.5, published: '2021-08-08T00:33:51Z', isPinned: 'no', extra: 1 },
    'Note',
  );
  assert.equal(errors.length, 5, errors.join('\n'));
});

test('tag-dialect items use entityId/content/mediaCount and standard items never do', () => {
  const tagPage = GOLDEN_CASES.find((c) => c.dialect === 'tag')!.build() as { orderedItems: Record<string, unknown>[] };
  for (const item of tagPage.orderedItems) {
    assert.ok('entityId' in item && !('internalId' in item) && !('summary' in item));
    assert.equal(typeof item.isSponsored, 'boolean');
    const author = item.attributedTo as Record<string, unknown>;
    assert.ok(!('userId' in author) && !('internalId' in author) && !('videoCount' in author));
  }
  const standard = GOLDEN_CASES.find((c) => c.name === 'user-videos')!.build() as { orderedItems: Record<string, unknown>[] };
  for (const item of standard.orderedItems) assert.ok(!('entityId' in item) && !('language' in item) && 'internalId' in item);
});
