// The classification table: every platform signal lands on the right outcome and AppError code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  classifyHttp,
  classifyJsonBody,
  classifyStatusCode,
  parseRetryAfter,
  toAppError,
  UpstreamFailure,
} from './classify.ts';

const answer = (status: number, body = '{}', headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers(headers),
  body,
});

test('platform status codes map to their outcomes', () => {
  const table: Array<[number, string]> = [
    [0, 'ok'],
    [10202, 'not_found'],
    [10204, 'not_found'],
    [10221, 'not_found'],
    [10205, 'not_found'],
    [19881007, 'not_found'],
    [10222, 'private_account'],
    [10216, 'private_content'],
    [10231, 'geo_blocked'],
    [10000, 'blocked'],
    [10101, 'blocked'],
    [10201, 'upstream_error'],
    [99999, 'upstream_error'],
  ];
  for (const [code, outcome] of table) assert.equal(classifyStatusCode(code).outcome, outcome, String(code));
});

test('HTTP-level signals: 429 with Retry-After, 5xx, 403, empty 200 with and without tt_orcas_res, WAF page', () => {
  const limited = classifyHttp(answer(429, '', { 'retry-after': '7' }), 'json', 0);
  assert.deepEqual([limited.outcome, limited.retryAfterSeconds], ['rate_limited', 7]);
  assert.equal(classifyHttp(answer(503), 'json', 0).outcome, 'upstream_error');
  assert.equal(classifyHttp(answer(403, '<html>'), 'page', 0).outcome, 'blocked');
  assert.equal(classifyHttp(answer(200, ''), 'json', 0).reason, 'empty_200');
  assert.equal(classifyHttp(answer(200, '', { tt_orcas_res: '1' }), 'json', 0).reason, 'empty_200_orcas');
  const waf = '<html><title>Please wait...</title><p id="cs" class="e30="></p><script>SlardarWAF</script></html>';
  assert.deepEqual(classifyHttp(answer(200, waf), 'page', 0), { outcome: 'blocked', reason: 'waf' });
  assert.equal(classifyHttp({ ...answer(200, '<html>'), finalUrl: 'https://x.test/login?redirect=1' }, 'page', 0).reason, 'login_redirect');
  assert.equal(classifyHttp(answer(200, '{"ok":1}'), 'json', 0).outcome, 'ok');
  // The interstitial answers an API call too; a JSON answer that merely mentions its words is data.
  assert.deepEqual(classifyHttp(answer(200, `\n ${waf}`), 'json', 0), { outcome: 'blocked', reason: 'waf' });
  assert.equal(classifyHttp(answer(200, ' {"desc":"Please wait... id=\\"cs\\" SlardarWAF"}'), 'json', 0).outcome, 'ok');
});

test('JSON bodies: captcha shapes are blocked, either status spelling is read, non-objects are a changed shape', () => {
  assert.equal(classifyJsonBody({ type: 'verify', code: 10000 }).outcome, 'blocked');
  assert.equal(classifyJsonBody({ verify_event: {} }).outcome, 'blocked');
  assert.equal(classifyJsonBody({ status_code: 10222 }).outcome, 'private_account');
  assert.equal(classifyJsonBody({ statusCode: 10231, status_code: 10231 }).outcome, 'geo_blocked');
  assert.equal(classifyJsonBody({ statusCode: 19881007, message: 'user_not_found' }).outcome, 'not_found');
  assert.equal(classifyJsonBody([1, 2]).reason, 'changed_shape');
  assert.equal(classifyJsonBody({ statusCode: { nested: true } }).reason, 'changed_shape');
});

test('Retry-After is read as seconds or as an HTTP date', () => {
  assert.equal(parseRetryAfter('12', 0), 12);
  assert.equal(parseRetryAfter(new Date(30_000).toUTCString(), 0), 30);
  assert.equal(parseRetryAfter(null, 0), undefined);
  assert.equal(parseRetryAfter('soon', 0), undefined);
});

test('outcomes map to AppError codes with safe public messages', () => {
  const defaults = { blockedRetryAfterSeconds: 30 };
  const table: Array<[ConstructorParameters<typeof UpstreamFailure>[0], string]> = [
    [{ outcome: 'not_found', reason: 'user_not_found' }, 'not_found'],
    [{ outcome: 'private_account', reason: 'x' }, 'private_account'],
    [{ outcome: 'private_content', reason: 'x' }, 'private_content'],
    [{ outcome: 'geo_blocked', reason: 'x' }, 'geo_blocked'],
    [{ outcome: 'blocked', reason: 'captcha' }, 'upstream_blocked'],
    [{ outcome: 'rate_limited', reason: 'http_429', retryAfterSeconds: 9 }, 'upstream_blocked'],
    [{ outcome: 'upstream_error', reason: 'http_500' }, 'upstream_error'],
    [{ outcome: 'timeout', reason: 'timeout' }, 'upstream_timeout'],
  ];
  for (const [c, code] of table) assert.equal(toAppError(new UpstreamFailure(c), 'user', defaults).code, code);
  const notFound = toAppError(new UpstreamFailure({ outcome: 'not_found', reason: 'x' }), 'user', defaults);
  assert.equal(notFound.message, 'The platform says this user does not exist.');
  const blocked = toAppError(new UpstreamFailure({ outcome: 'blocked', reason: 'x' }), 'video', defaults);
  assert.equal(blocked.retryAfterSeconds, 30);
  const limited = toAppError(new UpstreamFailure({ outcome: 'rate_limited', reason: 'x', retryAfterSeconds: 9 }), 'video', defaults);
  assert.equal(limited.retryAfterSeconds, 9);
  for (const [c] of table) {
    const message = toAppError(new UpstreamFailure(c), 'video', defaults).message;
    assert.doesNotMatch(message, /http|msToken|tt_chain|X-Bogus/i);
  }
});

test('only transient failures are retryable', () => {
  const retryable = (outcome: 'blocked' | 'upstream_error' | 'not_found' | 'timeout', reason: string) =>
    new UpstreamFailure({ outcome, reason }).retryable;
  assert.equal(retryable('blocked', 'empty_200'), true);
  assert.equal(retryable('timeout', 'timeout'), true);
  assert.equal(retryable('upstream_error', 'http_503'), true);
  assert.equal(retryable('upstream_error', 'network'), true);
  assert.equal(retryable('upstream_error', 'changed_shape'), false);
  assert.equal(retryable('not_found', 'user_not_found'), false);
});
