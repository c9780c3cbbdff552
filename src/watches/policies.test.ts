import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CACHE_POLICIES } from '../cache/policies.ts';
import { watchPolicies } from './policies.ts';

test('a watch run accepts cached answers at most half an interval old, never stale ones', () => {
  const fast = watchPolicies(CACHE_POLICIES, 1000);
  assert.deepEqual(fast.user, { ttlSeconds: 0, staleWhileRevalidateSeconds: 0, staleIfErrorSeconds: 0 });
  const slow = watchPolicies(CACHE_POLICIES, 3_600_000);
  assert.equal(slow.user.ttlSeconds, CACHE_POLICIES.user.ttlSeconds);
  assert.equal(slow.live.ttlSeconds, CACHE_POLICIES.live.ttlSeconds);
  assert.equal(watchPolicies(CACHE_POLICIES, 120_000).userVideos.ttlSeconds, 60);
});

test('name resolutions keep their own long policies', () => {
  assert.deepEqual(watchPolicies(CACHE_POLICIES, 1000).resolveUser, CACHE_POLICIES.resolveUser);
});
