// Secrets of the OAuth flow: random tokens, their stored hashes, constant-time comparison and
// PKCE S256 verification (RFC 7636 §4.6).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

/** High-entropy secrets need no slow hash: a SHA-256 digest is what the store keeps (storage/types.ts). */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** RFC 7636 §4.1: 43-128 characters of the unreserved set. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is base64url of 32 bytes: exactly 43 characters, no padding. */
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export function isValidCodeChallenge(challenge: string): boolean {
  return CHALLENGE.test(challenge);
}

export function verifyPkceS256(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = createHash('sha256').update(verifier, 'ascii').digest('base64url');
  return safeEqual(computed, challenge);
}
