import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeXGnarly, encodeXGnarly, requestFields } from './x-gnarly.ts';

// Published decode vector (PLATFORM.md §5.3, from the JSR README, X-Gnarly 5.1.0).
const VECTOR =
  'MktqXnEPLoZz6RyaxPytL6qu7/A1LU7LB4zGZOtQuq8szdGvK-mDaVbI8QiUYeDaPnAdwy6id5uQ5gT8s67MpQjR7OxrJVCQffmhoz-x-tQtI0iYmDlEcvHk6DxtFxKMq/4Y0kJHG6WxF0KVeIdapKtTlfvIaCzu3RsV/fHDQBELkIoX3x/cJP73pT6zy0F6gM-Et5rhfJXEl2KLwp93yF7Ki5XTmNMyw9NrRu8zqALAoiQNZEa-MF6nrJJXIeNUfVSiZGV9NUbRj';

/** A seeded word source, so every run seals with the same keys. */
function words(seed: number): () => number {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0);
}
const randomWord = words(20251110);

test('the published X-Gnarly vector decodes to exactly its record', () => {
  const fields = decodeXGnarly(VECTOR);
  assert.ok(fields, 'the vector did not decode');
  assert.deepEqual(Object.fromEntries(fields), {
    0: 1747774361,
    1: 1,
    2: 14,
    3: 'bfcd22d7d1ba47225dad53efa7d69271',
    4: 'd41d8cd98f00b204e9800998ecf8427e',
    5: '40b54b1d67cb8370879a3b534bfc9208',
    6: 1746916919,
    7: 1245783967,
    8: 1248991792,
    9: '5.1.0',
  });
});

const request = { query: 'aid=1988&secUid=MS4w&count=35&cursor=0&msToken=abc', body: '', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/142.0.0.0 Safari/537.36', envCode: 1, ubCode: 14, canvas: 1245783967, version: '5.1.0' };

test('a sealed request decodes back to its fields, bound to its query, body and User-Agent', () => {
  for (let i = 0; i < 50; i += 1) {
    const fields = requestFields({ ...request, nowMs: 1_746_916_919_000 + i * 7_919 });
    const decoded = decodeXGnarly(encodeXGnarly(fields, randomWord));
    assert.ok(decoded);
    for (const [key, value] of fields) assert.equal(decoded.get(key), value, `field ${key}`);
  }
  const fields = requestFields({ ...request, nowMs: 1_746_916_919_000 });
  assert.notEqual(fields.get(3), requestFields({ ...request, query: `${request.query}x`, nowMs: 1_746_916_919_000 }).get(3));
  assert.notEqual(fields.get(5), requestFields({ ...request, userAgent: 'curl/8', nowMs: 1_746_916_919_000 }).get(5));
});

test('the 5.1.1 field set (SCM version, counter, inner checksum) round-trips too', () => {
  const fields = requestFields({ ...request, nowMs: 1_751_100_000_000, version: '5.1.1', scmVersion: '1.0.0.314' });
  const decoded = decodeXGnarly(encodeXGnarly(fields, randomWord));
  assert.deepEqual(decoded && Object.fromEntries([...decoded].filter(([k]) => k !== 0)), Object.fromEntries(fields));
});

test('two seals of the same request differ (random key) and any altered character breaks the seal', () => {
  const fields = requestFields({ ...request, nowMs: 1_746_916_919_000 });
  const one = encodeXGnarly(fields, randomWord);
  assert.notEqual(one, encodeXGnarly(fields, words(7)));
  let broken = 0;
  for (let i = 8; i < one.length; i += 9) {
    const swapped = one[i] === 'u' ? '0' : 'u';
    const altered = decodeXGnarly(one.slice(0, i) + swapped + one.slice(i + 1));
    if (!altered || [...fields].some(([k, v]) => altered.get(k) !== v)) broken += 1;
  }
  assert.equal(broken, Math.ceil((one.length - 8) / 9));
  assert.equal(decodeXGnarly('not a seal'), undefined);
  assert.equal(decodeXGnarly(''), undefined);
});
