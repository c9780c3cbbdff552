// The Redis entry framing, without a Redis (the store itself runs the contract in test/cache/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeEntry, encodeEntry } from './redis-store.ts';

test('a frame decodes to the entry it encodes, byte for byte', () => {
  const body = Buffer.from([0, 255, 0xc3, 0x28, 10, 13, 34]);
  const decoded = decodeEntry(encodeEntry({ body, etag: '"ü-etag"', storedAtMs: 1_712_345_678_901 }));
  assert.deepEqual(decoded, { body, etag: '"ü-etag"', storedAtMs: 1_712_345_678_901 });
});

test('a frame of another version, or truncated, reads as absent', () => {
  const frame = encodeEntry({ body: Buffer.from('{}'), etag: '"e"', storedAtMs: 1 });
  const otherVersion = Buffer.from(frame);
  otherVersion[0] = 2;
  assert.equal(decodeEntry(otherVersion), undefined);
  assert.equal(decodeEntry(frame.subarray(0, 12)), undefined);
  assert.equal(decodeEntry(Buffer.from('{"json":"not a frame"}')), undefined);
});
