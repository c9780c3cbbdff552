// The WAF proof of work: recognised, solved into the answer cookie, and bounded in time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { isWafPage, parseWafChallenge, solveWafChallenge } from './waf.ts';

function challengePage(nonce: number, options: { extra?: boolean } = {}): string {
  const a = Buffer.from('prefix-bytes-1234').toString('base64');
  const c = createHash('sha256').update(Buffer.from('prefix-bytes-1234')).update(String(nonce)).digest('base64');
  const cs = Buffer.from(JSON.stringify({ v: { a, c, b: 'x' }, s: 'token' })).toString('base64');
  return `<html><head><title>Please wait...</title></head><body>
<p id="cs" class="${cs}"></p><p id="wci" class="_wafchallengeid"></p>
${options.extra ? '<p id="rci" class="waforiginalreid"></p><p id="rs" class="rs-value"></p>' : ''}
<script>/* SlardarWAF */</script></body></html>`;
}

test('a challenge page is recognised and its nonce found; the cookie carries the answer as base64 JSON', async () => {
  const html = challengePage(4321, { extra: true });
  assert.equal(isWafPage(html), true);
  const challenge = parseWafChallenge(html);
  assert.ok(challenge);
  const cookies = await solveWafChallenge(challenge, 5_000);
  assert.ok(cookies);
  assert.equal(cookies[0].name, '_wafchallengeid');
  const answer = JSON.parse(Buffer.from(cookies[0].value, 'base64').toString('utf8'));
  assert.equal(Buffer.from(answer.d, 'base64').toString(), '4321');
  assert.equal(answer.s, 'token');
  assert.deepEqual(cookies[1], { name: 'waforiginalreid', value: 'rs-value' });
});

test('an unsolvable challenge gives up once the time budget is spent', async () => {
  let now = 0;
  const html = challengePage(2_000_000);
  const challenge = parseWafChallenge(html);
  assert.ok(challenge);
  // Each clock read advances 1 s, so the 2 s budget runs out after a couple of slices.
  const result = await solveWafChallenge(challenge, 2_000, () => (now += 1_000));
  assert.equal(result, undefined);
});

test('ordinary pages are not taken for a challenge', () => {
  assert.equal(isWafPage('<html><script id="__UNIVERSAL_DATA_FOR_REHYDRATION__">{}</script></html>'), false);
  assert.equal(parseWafChallenge('<html>Please wait...</html>'), undefined);
});
