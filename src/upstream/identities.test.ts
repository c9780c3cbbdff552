// The identity pool: pacing per identity on an injected clock, healthiest-first, retirement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createIdentityPool, randomDeviceId } from './identities.ts';
import { createMemoryIdentityHealthStore } from './health.ts';
import type { HttpSession, SessionFactory } from './http-session.ts';

function fakeSessions(): { factory: SessionFactory; bootstraps: string[] } {
  const bootstraps: string[] = [];
  const factory: SessionFactory = async ({ browser }) => {
    const session: HttpSession = {
      browser,
      userAgent: browser === 'chrome' ? 'Mozilla/5.0 (Macintosh) Chrome/124.0.0.0' : 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
      async fetch(url) {
        bootstraps.push(url);
        return { status: 200, headers: new Headers(), url, text: async () => '' };
      },
      async getCookie() {
        return undefined;
      },
      async setCookie() {},
    };
    return session;
  };
  return { factory, bootstraps };
}

function makePool(overrides: { identityCount?: number; rate?: number; perIdentity?: number; onRetire?: (reason: string) => void } = {}) {
  let now = 1_000_000;
  const sessions = fakeSessions();
  const health = createMemoryIdentityHealthStore();
  const pool = createIdentityPool({
    config: {
      identityCount: overrides.identityCount ?? 1,
      identityRatePerSecond: overrides.rate ?? 2,
      maxConcurrentPerIdentity: overrides.perIdentity ?? 10,
      proxies: [],
      webOrigin: 'http://127.0.0.1:9',
      requestTimeoutMs: 1_000,
    },
    createSession: sessions.factory,
    health,
    clock: { now: () => now },
    ...(overrides.onRetire ? { onRetire: overrides.onRetire } : {}),
  });
  return { pool, sessions, health, advance: (ms: number) => (now += ms) };
}

test('no identity is used more often than identityRatePerSecond', async () => {
  const { pool, advance } = makePool({ rate: 2 });
  await pool.ready();
  const first = pool.tryAcquire(new Map());
  assert.ok('identity' in first);
  const second = pool.tryAcquire(new Map());
  assert.deepEqual(second, { waitMs: 500 });
  advance(499);
  assert.deepEqual(pool.tryAcquire(new Map()), { waitMs: 1 });
  advance(1);
  assert.ok('identity' in pool.tryAcquire(new Map()));
});

test('a paced identity is skipped in favour of a free one', async () => {
  const { pool } = makePool({ identityCount: 2, rate: 1 });
  await pool.ready();
  const a = pool.tryAcquire(new Map());
  const b = pool.tryAcquire(new Map());
  assert.ok('identity' in a && 'identity' in b);
  assert.notEqual(a.identity.id, b.identity.id);
  assert.ok('waitMs' in pool.tryAcquire(new Map()));
});

test('the healthiest identity is picked first', async () => {
  const { pool } = makePool({ identityCount: 3 });
  await pool.ready();
  const [x, y, z] = pool.identities;
  const picked = pool.tryAcquire(new Map([[x.id, 0.2], [y.id, 0.9], [z.id, 0.5]]));
  assert.ok('identity' in picked);
  assert.equal(picked.identity.id, y.id);
});

test('an identity at maxConcurrentPerIdentity is not handed out until a lease is released', async () => {
  const { pool, advance } = makePool({ perIdentity: 1, rate: 1000 });
  await pool.ready();
  const lease = pool.tryAcquire(new Map());
  assert.ok('identity' in lease);
  advance(10);
  assert.ok('waitMs' in pool.tryAcquire(new Map()));
  lease.release();
  assert.ok('identity' in pool.tryAcquire(new Map()));
});

test('a retired identity is replaced by a freshly bootstrapped one with a new device id', async () => {
  const { pool, sessions } = makePool();
  await pool.ready();
  const old = pool.identities[0];
  pool.retire(old);
  await pool.ready();
  assert.equal(pool.identities.length, 1);
  assert.notEqual(pool.identities[0].id, old.id);
  assert.notEqual(pool.identities[0].deviceId, old.deviceId);
  assert.equal(sessions.bootstraps.length, 2);
  assert.equal(sessions.bootstraps[0], 'http://127.0.0.1:9/');
});

test('states count identities as healthy, degraded by their health score, and bootstrapping', async () => {
  const { pool, health } = makePool({ identityCount: 3 });
  assert.deepEqual(await pool.states(), { healthy: 0, degraded: 0, bootstrapping: 0 }, 'none before the first use');
  pool.fill();
  assert.deepEqual(await pool.states(), { healthy: 0, degraded: 0, bootstrapping: 3 });
  await pool.ready();
  assert.deepEqual(await pool.states(), { healthy: 3, degraded: 0, bootstrapping: 0 });
  const [failing] = pool.identities;
  await health.record(failing.id, 'blocked', 0);
  assert.deepEqual(await pool.states(), { healthy: 3, degraded: 0, bootstrapping: 0 }, 'one failure from 1 leaves 0.7');
  await health.record(failing.id, 'upstream_error', 0);
  assert.deepEqual(await pool.states(), { healthy: 2, degraded: 1, bootstrapping: 0 }, 'two leave 0.49');
  await health.record(failing.id, 'not_found', 0);
  assert.deepEqual(await pool.states(), { healthy: 2, degraded: 1, bootstrapping: 0 }, 'an answer about the content does not move it');
});

test('retiring an identity of the pool is reported once, with its reason', async () => {
  const reasons: string[] = [];
  const { pool } = makePool({ onRetire: (reason) => reasons.push(reason) });
  await pool.ready();
  const old = pool.identities[0];
  pool.retire(old, 'captcha');
  pool.retire(old, 'captcha');
  assert.deepEqual(reasons, ['captcha']);
});

test('device ids are 19 digits inside the range real clients use', () => {
  for (let i = 0; i < 200; i += 1) {
    const id = BigInt(randomDeviceId());
    assert.ok(id >= 7250000000000000000n && id <= 7325099899999994577n);
  }
});
