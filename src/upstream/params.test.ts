// Query order and serialisation: common params, endpoint params, msToken, then X-Bogus last.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildWebApiUrl, commonWebParams, profileFromUserAgent, type QueryContext } from './params.ts';
import { createXBogusSigner } from './signing/signer.ts';
import { decodeXBogus, verifyXBogus } from './signing/x-bogus.ts';

const UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const ctx: QueryContext = {
  profile: profileFromUserAgent('chrome', UA),
  deviceId: '7250000000000000001',
  verifyFp: 'verify_abc1234',
  region: 'US',
  language: 'en',
  tzName: 'America/New_York',
  historyLen: 2,
};

test('web API URLs put common params first, then endpoint params, then msToken', () => {
  const url = buildWebApiUrl('https://www.example.test', '/api/user/detail/', ctx, [['secUid', ''], ['uniqueId', 'a b']], 'tok=en');
  const keys = [...url.searchParams.keys()];
  assert.deepEqual(keys.slice(0, 4), ['aid', 'app_name', 'channel', 'device_platform']);
  assert.deepEqual(keys.slice(-3), ['secUid', 'uniqueId', 'msToken']);
  assert.equal(url.searchParams.get('aid'), '1988');
  assert.equal(url.searchParams.get('device_id'), '7250000000000000001');
  assert.equal(url.searchParams.get('msToken'), 'tok=en');
  assert.equal(url.searchParams.get('uniqueId'), 'a b');
  assert.equal(url.searchParams.get('browser_platform'), 'MacIntel');
  assert.equal(url.searchParams.get('os'), 'mac');
});

test('the query is serialised like a browser: spaces as %20, ( ) / : , ; literal', () => {
  const url = buildWebApiUrl('https://www.example.test', '/api/x/', ctx, [], undefined);
  assert.match(url.search, /browser_version=5\.0%20\(Macintosh;%20Intel%20Mac%20OS%20X%2010_15_7\)%20AppleWebKit\/537\.36/);
  assert.match(url.search, /tz_name=America\/New_York/);
  assert.doesNotMatch(url.search, /\+/);
});

test('every common parameter the web app sends is present', () => {
  const keys = commonWebParams(ctx).map(([k]) => k);
  for (const required of ['aid', 'app_name', 'device_platform', 'browser_language', 'browser_name', 'browser_online', 'browser_platform', 'browser_version', 'cookie_enabled', 'device_id', 'focus_state', 'history_len', 'is_fullscreen', 'is_page_visible', 'language', 'os', 'priority_region', 'referer', 'region', 'root_referer', 'screen_height', 'screen_width', 'tz_name', 'verifyFp', 'webcast_language']) {
    assert.ok(keys.includes(required), required);
  }
});

test('the X-Bogus signer appends the signature last, over the query exactly as sent', () => {
  const unsigned = buildWebApiUrl('https://www.example.test', '/api/x/', ctx, [['a', '1']], 'm');
  const signed = createXBogusSigner().sign(unsigned, { userAgent: UA, nowMs: 1_735_689_600_000 });
  const keys = [...signed.searchParams.keys()];
  assert.equal(keys.at(-1), 'X-Bogus');
  const value = signed.searchParams.get('X-Bogus') as string;
  assert.equal(value.length, 28);
  assert.deepEqual(decodeXBogus(value), { unixSeconds: 1_735_689_600 });
  const query = signed.search.slice(1).replace(/&X-Bogus=.*$/, '');
  assert.equal(query, unsigned.search.slice(1));
  assert.equal(verifyXBogus(value, query, UA), true);
});
