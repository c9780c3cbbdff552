import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { isValidCodeChallenge, safeEqual, verifyPkceS256 } from './crypto.ts';

// RFC 7636 Appendix B test vector.
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

test('PKCE S256 accepts the RFC 7636 appendix B verifier for its challenge', () => {
  assert.equal(verifyPkceS256(VERIFIER, CHALLENGE), true);
  assert.equal(isValidCodeChallenge(CHALLENGE), true);
});

test('PKCE S256 refuses a wrong verifier, the plain method and malformed verifiers', () => {
  assert.equal(verifyPkceS256(`${VERIFIER.slice(0, -1)}x`, CHALLENGE), false);
  assert.equal(verifyPkceS256(CHALLENGE, CHALLENGE), false, 'plain: verifier equal to challenge');
  assert.equal(verifyPkceS256('short', createHash('sha256').update('short').digest('base64url')), false);
  const long = 'a'.repeat(129);
  assert.equal(verifyPkceS256(long, createHash('sha256').update(long).digest('base64url')), false);
});

test('a challenge must be 43 base64url characters', () => {
  assert.equal(isValidCodeChallenge('abc'), false);
  assert.equal(isValidCodeChallenge(`${CHALLENGE}=`), false);
  assert.equal(isValidCodeChallenge(CHALLENGE.replace('-', '+')), false);
});

test('safeEqual compares by value and never matches different lengths', () => {
  assert.equal(safeEqual('abc', 'abc'), true);
  assert.equal(safeEqual('abc', 'abd'), false);
  assert.equal(safeEqual('abc', 'abcd'), false);
});
