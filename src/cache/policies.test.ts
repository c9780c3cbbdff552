// The default cache policies cover every operation and scale as configured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CACHE_POLICIES, scalePolicies } from './policies.ts';
import type { CachePolicy } from './types.ts';

// Compile-time: the table is what operations take as `policies`.
const asOperationDeps: Record<string, CachePolicy> = CACHE_POLICIES;
void asOperationDeps;

const OPERATION_NAMES = [
  'user', 'userVideos', 'userReposts', 'userLikes', 'userCollections', 'userFollowers', 'video',
  'comments', 'replies', 'tagVideos', 'live', 'transcript',
];

test('every operation and both resolutions have a policy', () => {
  assert.deepEqual(Object.keys(CACHE_POLICIES).sort(), [...OPERATION_NAMES, 'resolveUser', 'resolveTag'].sort());
});

test('every policy has a positive ttl and stale windows no shorter than zero', () => {
  for (const [name, p] of Object.entries(CACHE_POLICIES)) {
    assert.ok(Number.isInteger(p.ttlSeconds) && p.ttlSeconds > 0, name);
    assert.ok(p.staleWhileRevalidateSeconds >= 0 && p.staleIfErrorSeconds >= 0, name);
  }
});

test('the defaults match the documented freshness', () => {
  assert.equal(CACHE_POLICIES.user.ttlSeconds, 300);
  assert.equal(CACHE_POLICIES.comments.ttlSeconds, 60);
  assert.equal(CACHE_POLICIES.replies.ttlSeconds, 60);
  assert.equal(CACHE_POLICIES.live.ttlSeconds, 10);
  assert.ok(CACHE_POLICIES.live.staleIfErrorSeconds <= 60, 'a live answer is never hours old');
  assert.equal(CACHE_POLICIES.transcript.ttlSeconds, 86_400);
  assert.equal(CACHE_POLICIES.resolveUser.ttlSeconds, 3 * 86_400);
  assert.equal(CACHE_POLICIES.resolveTag.ttlSeconds, 3 * 86_400);
});

test('policies cannot be changed at run time', () => {
  assert.throws(() => {
    (CACHE_POLICIES.user as { ttlSeconds: number }).ttlSeconds = 1;
  }, TypeError);
});

test('scalePolicies multiplies every window and keeps positive ones at least one second', () => {
  const doubled = scalePolicies(2);
  assert.deepEqual(doubled.video, { ttlSeconds: 600, staleWhileRevalidateSeconds: 600, staleIfErrorSeconds: 172_800 });
  assert.equal(scalePolicies(0.001).live.ttlSeconds, 1);
  assert.deepEqual(scalePolicies(0).user, { ttlSeconds: 0, staleWhileRevalidateSeconds: 0, staleIfErrorSeconds: 0 });
  assert.equal(CACHE_POLICIES.video.ttlSeconds, 300, 'the defaults are left untouched');
});

test('a negative or non-finite factor is refused', () => {
  for (const factor of [-1, Number.NaN, Number.POSITIVE_INFINITY]) assert.throws(() => scalePolicies(factor), RangeError);
});
