// Pins X-Bogus to the vectors published with the public implementations (PLATFORM.md §5.3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signXBogus, decodeXBogus, verifyXBogus } from './x-bogus.ts';

const WIN_126 =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const MAC_149 =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/149.0.0.0 Safari/537.36';
const LINUX_140 =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const WIN_120 =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const Q1 =
  'device_platform=webapp&aid=6383&channel=channel_pc_web&aweme_id=7372484719365098803&pc_client_type=1&version_code=190500&version_name=19.5.0';
const Q2 = 'aid=6383&count=20&cursor=0&item_id=7372484719365098803&device_platform=webapp&channel=channel_pc_web';
const Q3 =
  'aid=1988&app_name=tiktok_web&device_platform=web_pc&secUid=MS4wLjABAAAAv7iSuuXDJGDvJkmH_vz1qkDZYo1apxgzaxdBSeIuPiM&cursor=0&count=30&msToken=';

const vectors: Array<[string, string, number, string]> = [
  [WIN_126, Q1, 1735689600, 'DFSzswVYLFJANSqMt8kkae9WX7ro'],
  [WIN_126, Q2, 1735689600, 'DFSzswVYzlxANSqMt8kkae9WX7rD'],
  [MAC_149, Q1, 1735689600, 'DFSzswVYLFJANylzt8kkae9WX7JQ'],
  [LINUX_140, Q1, 1735689600, 'DFSzswVYLFJANHayt8kkae9WX7JO'],
  [WIN_120, Q3, 1717028537, 'DFSzswVYnOkANG//tA8dxF9WX7ni'],
];

test('signXBogus reproduces every published vector', () => {
  for (const [ua, query, time, expected] of vectors) {
    assert.equal(signXBogus(query, ua, time), expected, `${time} ${query.slice(0, 30)}`);
  }
});

test('decodeXBogus recovers the signing time of a published vector and of a fresh signature', () => {
  assert.deepEqual(decodeXBogus('DFSzswVYLFJANSqMt8kkae9WX7ro'), { unixSeconds: 1735689600 });
  assert.deepEqual(decodeXBogus(signXBogus('a=1', 'UA', 1_900_000_000)), { unixSeconds: 1_900_000_000 });
});

test('decodeXBogus rejects malformed or tampered values', () => {
  assert.equal(decodeXBogus('1'), undefined);
  assert.equal(decodeXBogus('DFSzswVYLFJANSqMt8kkae9WX7r'), undefined);
  assert.equal(decodeXBogus('DFSzswVYLFJANSqMt8kkae9WX7r!'), undefined);
  const tampered = 'DFSzswVYLFJANSqMt8kkae9WX7ro'.replace('LFJ', 'LFk');
  assert.equal(decodeXBogus(tampered), undefined);
});

test('verifyXBogus binds the signature to the query and the User-Agent', () => {
  const sig = signXBogus(Q1, WIN_126, 1735689600);
  assert.equal(verifyXBogus(sig, Q1, WIN_126), true);
  assert.equal(verifyXBogus(sig, Q2, WIN_126), false);
  assert.equal(verifyXBogus(sig, Q1, MAC_149), false);
});
