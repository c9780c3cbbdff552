import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completeLength, singleByteRange } from './range.ts';

test('one bytes range is passed on normalised; anything else means the whole file', () => {
  assert.equal(singleByteRange('bytes=0-99'), 'bytes=0-99');
  assert.equal(singleByteRange('Bytes = 5 - '), 'bytes=5-');
  assert.equal(singleByteRange('bytes=-500'), 'bytes=-500');
  for (const ignored of [undefined, '', 'bytes=-', 'bytes=9-3', 'bytes=-0', 'bytes=0-1,5-9', 'items=0-9', 'bytes=abc', ['bytes=0-1']]) {
    assert.equal(singleByteRange(ignored as never), undefined, String(ignored));
  }
});

test('the complete length is read from both Content-Range forms', () => {
  assert.equal(completeLength('bytes 0-99/4000'), 4000);
  assert.equal(completeLength('bytes */4000'), 4000);
  assert.equal(completeLength('bytes 0-99/*'), undefined);
  assert.equal(completeLength(null), undefined);
});
