import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { base64, latin1Bytes, md5Hex, utf8Bytes } from './md5.ts';

test('md5 matches the RFC 1321 test suite', () => {
  const suite: Array<[string, string]> = [
    ['', 'd41d8cd98f00b204e9800998ecf8427e'],
    ['a', '0cc175b9c0f1b6a831c399e269772661'],
    ['abc', '900150983cd24fb0d6963f7d28e17f72'],
    ['message digest', 'f96b697d7cb7938d525a2f31aaf161d0'],
    ['abcdefghijklmnopqrstuvwxyz', 'c3fcd3d76192e4007dfb496cca67e13b'],
    ['12345678901234567890123456789012345678901234567890123456789012345678901234567890', '57edf4a22be3c955ac49da2e2107b67a'],
  ];
  for (const [input, digest] of suite) assert.equal(md5Hex(latin1Bytes(input)), digest, input);
});

test('md5 and base64 agree with node:crypto on inputs around every block boundary', () => {
  for (let length = 0; length < 200; length += 1) {
    const data = randomBytes(length);
    assert.equal(md5Hex(data), createHash('md5').update(data).digest('hex'), `length ${length}`);
    assert.equal(base64(data), data.toString('base64'), `length ${length}`);
  }
  assert.equal(md5Hex(utf8Bytes('é🙂')), createHash('md5').update('é🙂', 'utf8').digest('hex'));
});
