import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commentId, videoId } from './params.ts';

test('ids with leading zeros name the same video or comment as without them', () => {
  assert.equal(videoId.parse('007'), '7');
  assert.equal(videoId.parse('7'), '7');
  assert.equal(videoId.parse('0'), '0');
  assert.equal(commentId.parse('000123'), '123');
  assert.equal(videoId.parse('7372484719365098803'), '7372484719365098803');
  assert.throws(() => videoId.parse('7a'));
  assert.throws(() => videoId.parse(''));
});
