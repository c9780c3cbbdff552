import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEphemeralCursorSigner } from '../operations/cursor-keys.ts';
import { isAppError } from '../errors.ts';
import { createMediaLinks } from './links.ts';

const signer = createEphemeralCursorSigner();
let nowMs = Date.UTC(2026, 0, 1);
const links = createMediaLinks({ signer, publicUrl: 'https://reelay.example', clock: { now: () => nowMs } });

const codeOf = (promise: Promise<unknown>) => promise.then(() => 'ok', (error: unknown) => (isAppError(error) ? error.code : 'thrown'));

test('a link verifies for its video and format until it expires, then is link_expired', async () => {
  const link = links.issue({ videoId: '123', format: 'best', keyId: 'key-1', ttlSeconds: 60 });
  const url = new URL(link.href);
  assert.equal(url.origin + url.pathname, 'https://reelay.example/v1/platform/videos/123/media');
  assert.equal(url.searchParams.get('format'), 'best');
  assert.equal(link.expiresAtMs, nowMs + 60_000);
  const token = url.searchParams.get('link')!;
  assert.deepEqual(await links.verify({ videoId: '123', format: 'best', link: token }), { keyId: 'key-1' });
  nowMs += 60_000;
  assert.equal(await codeOf(links.verify({ videoId: '123', format: 'best', link: token })), 'link_expired');
});

test('a link for another video or format, an altered one, or garbage is invalid_link', async () => {
  const token = new URL(links.issue({ videoId: '123', format: 'audio', keyId: 'k', ttlSeconds: 60 }).href).searchParams.get('link')!;
  assert.equal(await codeOf(links.verify({ videoId: '124', format: 'audio', link: token })), 'invalid_link');
  assert.equal(await codeOf(links.verify({ videoId: '123', format: 'best', link: token })), 'invalid_link');
  const [payload, id, tag] = token.split('.');
  const forged = Buffer.from(JSON.stringify({ k: 'k', e: 9_999_999_999 })).toString('base64url');
  assert.equal(await codeOf(links.verify({ videoId: '123', format: 'audio', link: `${forged}.${id}.${tag}` })), 'invalid_link');
  // Another first character, whatever the random key made it (a fixed 'x' equals it 1 time in 64).
  const altered = `${tag[0] === 'A' ? 'B' : 'A'}${tag.slice(1)}`;
  assert.equal(await codeOf(links.verify({ videoId: '123', format: 'audio', link: `${payload}.${id}.${altered}` })), 'invalid_link');
  assert.equal(await codeOf(links.verify({ videoId: '123', format: 'audio', link: 'nonsense' })), 'invalid_link');
});
