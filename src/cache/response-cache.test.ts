// Response cache semantics on an injected clock: hit, miss, stale-while-revalidate, stale-if-error,
// negative caching, coalescing and byte-exact bodies.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../errors.ts';
import { createLocalCoalescer } from './coalescer.ts';
import { createMemoryStore } from './memory-store.ts';
import { createResponseCache, etagOf, type CacheEvent } from './response-cache.ts';
import type { ByteStore, CachePolicy } from './types.ts';

const POLICY: CachePolicy = { ttlSeconds: 60, staleWhileRevalidateSeconds: 30, staleIfErrorSeconds: 600 };

function setup(options: { maxStaleSeconds?: number; store?: ByteStore } = {}) {
  let nowMs = 1_700_000_000_000;
  const clock = { now: () => nowMs };
  const events: CacheEvent[] = [];
  const lookups: boolean[] = [];
  const waiters: Array<{ status: CacheEvent['status']; resolve: () => void }> = [];
  const store = options.store ?? createMemoryStore({ maxBytes: 1 << 20, clock });
  const cache = createResponseCache({
    store,
    coalescer: createLocalCoalescer(),
    clock,
    maxStaleSeconds: options.maxStaleSeconds,
    onLookup: (lookup) => lookups.push(lookup.hit),
    onEvent: (event) => {
      events.push(event);
      for (const w of waiters.filter((w) => w.status === event.status)) w.resolve();
    },
  });
  return {
    cache,
    events,
    lookups,
    advanceSeconds: (s: number) => {
      nowMs += s * 1000;
    },
    /** Resolves at the next event of that status (background work has then finished). */
    nextEvent: (status: CacheEvent['status']) => new Promise<void>((resolve) => waiters.push({ status, resolve })),
  };
}

const json = (buffer: Buffer): unknown => JSON.parse(buffer.toString('utf8'));

describe('freshness', () => {
  test('a first fetch is a miss that loads; a second within ttl is a hit that does not', async () => {
    const { cache } = setup();
    let calls = 0;
    const load = async () => ({ n: ++calls });
    const first = await cache.fetch('k', POLICY, load);
    const second = await cache.fetch('k', POLICY, load);
    assert.equal(first.status, 'miss');
    assert.equal(second.status, 'hit');
    assert.deepEqual(json(second.body), { n: 1 });
    assert.equal(calls, 1);
  });

  test('age counts from when the entry was stored', async () => {
    const { cache, advanceSeconds } = setup();
    await cache.fetch('k', POLICY, async () => 1);
    advanceSeconds(42.9);
    const hit = await cache.fetch('k', POLICY, async () => 2);
    assert.equal(hit.status, 'hit');
    assert.equal(hit.ageSeconds, 42);
  });

  test('an entry past every window is a miss again', async () => {
    const { cache, advanceSeconds } = setup();
    await cache.fetch('k', POLICY, async () => 'old');
    advanceSeconds(60 + 600);
    const result = await cache.fetch('k', POLICY, async () => 'new');
    assert.equal(result.status, 'miss');
    assert.deepEqual(json(result.body), 'new');
  });

  test('a policy with ttl 0 loads on every fetch but still coalesces concurrent ones', async () => {
    const { cache } = setup();
    const off: CachePolicy = { ttlSeconds: 0, staleWhileRevalidateSeconds: 0, staleIfErrorSeconds: 0 };
    let calls = 0;
    const load = async () => ++calls;
    await Promise.all([cache.fetch('k', off, load), cache.fetch('k', off, load)]);
    const later = await cache.fetch('k', off, load);
    assert.equal(later.status, 'miss');
    assert.equal(calls, 2);
  });

  test('maxStaleSeconds caps the stale windows of every policy', async () => {
    const { cache, advanceSeconds } = setup({ maxStaleSeconds: 10 });
    await cache.fetch('k', POLICY, async () => 'old');
    advanceSeconds(60 + 11);
    await assert.rejects(cache.fetch('k', POLICY, async () => {
      throw new AppError('upstream_error', 'Upstream error.');
    }), { code: 'upstream_error' });
  });
});

describe('bodies and validators', () => {
  test('the body is the JSON of the value, byte for byte, and the etag is stable', async () => {
    const { cache } = setup();
    const value = { text: 'Grüße 😀 "quoted" \u2028', n: [1, 2.5, null] };
    const a = await cache.fetch('a', POLICY, async () => value);
    const b = await cache.fetch('b', POLICY, async () => structuredClone(value));
    const hit = await cache.fetch('a', POLICY, async () => 'unused');
    assert.deepEqual(a.body, Buffer.from(JSON.stringify(value), 'utf8'));
    assert.deepEqual(hit.body, a.body);
    assert.equal(a.etag, b.etag);
    assert.equal(hit.etag, a.etag);
    assert.match(a.etag, /^"[A-Za-z0-9_-]{27}"$/);
    assert.equal(a.etag, etagOf(a.body));
  });

  test('different bodies have different etags', async () => {
    const { cache } = setup();
    const a = await cache.fetch('a', POLICY, async () => ({ v: 1 }));
    const b = await cache.fetch('b', POLICY, async () => ({ v: 2 }));
    assert.notEqual(a.etag, b.etag);
  });
});

describe('stale-while-revalidate', () => {
  test('past ttl within swr, every caller gets the stale entry and exactly one refresh runs', async () => {
    const { cache, advanceSeconds, nextEvent } = setup();
    await cache.fetch('k', POLICY, async () => 'v1');
    advanceSeconds(61);
    const gate = Promise.withResolvers<string>();
    let refreshes = 0;
    const load = () => {
      refreshes += 1;
      return gate.promise;
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => cache.fetch('k', POLICY, load)));
    const more = await cache.fetch('k', POLICY, load);
    for (const r of [...results, more]) {
      assert.equal(r.status, 'stale');
      assert.deepEqual(json(r.body), 'v1');
      assert.equal(r.ageSeconds, 61);
    }
    const revalidated = nextEvent('revalidated');
    gate.resolve('v2');
    await revalidated;
    assert.equal(refreshes, 1);
    const fresh = await cache.fetch('k', POLICY, load);
    assert.equal(fresh.status, 'hit');
    assert.deepEqual(json(fresh.body), 'v2');
    assert.equal(fresh.ageSeconds, 0);
  });

  test('a failed background refresh keeps serving the stale entry', async () => {
    const { cache, advanceSeconds, nextEvent } = setup();
    await cache.fetch('k', POLICY, async () => 'v1');
    advanceSeconds(61);
    const failed = nextEvent('error');
    const stale = await cache.fetch('k', POLICY, async () => {
      throw new AppError('upstream_timeout', 'Upstream timed out.');
    });
    await failed;
    assert.equal(stale.status, 'stale');
    const again = await cache.fetch('k', POLICY, async () => 'v2');
    assert.equal(again.status, 'stale');
    assert.deepEqual(json(again.body), 'v1');
  });
});

describe('stale-if-error', () => {
  for (const code of ['upstream_error', 'upstream_blocked', 'upstream_timeout', 'rate_limited'] as const) {
    test(`${code} past swr but within sie serves the stale entry marked stale`, async () => {
      const { cache, advanceSeconds } = setup();
      await cache.fetch('k', POLICY, async () => 'v1');
      advanceSeconds(60 + 30 + 1);
      const result = await cache.fetch('k', POLICY, async () => {
        throw new AppError(code, 'Upstream trouble.');
      });
      assert.equal(result.status, 'stale');
      assert.deepEqual(json(result.body), 'v1');
      assert.equal(result.ageSeconds, 91);
    });
  }

  test('beyond sie the retryable error is thrown', async () => {
    const { cache, advanceSeconds } = setup();
    await cache.fetch('k', POLICY, async () => 'v1');
    advanceSeconds(60 + 600 - 1);
    const failing = async () => {
      throw new AppError('upstream_blocked', 'Blocked.');
    };
    assert.equal((await cache.fetch('k', POLICY, failing)).status, 'stale');
    advanceSeconds(1);
    await assert.rejects(cache.fetch('k', POLICY, failing), { code: 'upstream_blocked' });
  });

  test('a retryable error with nothing cached propagates and is not cached', async () => {
    const { cache } = setup();
    await assert.rejects(cache.fetch('k', POLICY, async () => {
      throw new AppError('upstream_error', 'Upstream error.');
    }), { code: 'upstream_error' });
    assert.equal((await cache.fetch('k', POLICY, async () => 'ok')).status, 'miss');
  });

  test('an unexpected (non-AppError) failure propagates even when a stale entry exists', async () => {
    const { cache, advanceSeconds } = setup();
    await cache.fetch('k', POLICY, async () => 'v1');
    advanceSeconds(91);
    await assert.rejects(cache.fetch('k', POLICY, async () => {
      throw new TypeError('bug');
    }), TypeError);
  });
});

describe('non-retryable answers', () => {
  test('not_found propagates, drops the stale entry and is remembered for 5 seconds only', async () => {
    const { cache, advanceSeconds } = setup();
    await cache.fetch('k', POLICY, async () => 'v1');
    advanceSeconds(91);
    let calls = 0;
    const gone = async () => {
      calls += 1;
      throw new AppError('not_found', 'Video not found.', { details: { id: '1' } });
    };
    await assert.rejects(cache.fetch('k', POLICY, gone), { code: 'not_found' });
    await assert.rejects(cache.fetch('k', POLICY, gone), { code: 'not_found', message: 'Video not found.' });
    assert.equal(calls, 1, 'the second not_found came from the negative cache');
    advanceSeconds(5);
    const back = await cache.fetch('k', POLICY, async () => 'v2');
    assert.equal(back.status, 'miss');
    assert.deepEqual(json(back.body), 'v2');
  });

  test('private_account propagates and is not remembered', async () => {
    const { cache } = setup();
    let calls = 0;
    const load = async () => {
      calls += 1;
      throw new AppError('private_account', 'This account is private.');
    };
    await assert.rejects(cache.fetch('k', POLICY, load), { code: 'private_account' });
    await assert.rejects(cache.fetch('k', POLICY, load), { code: 'private_account' });
    assert.equal(calls, 2);
  });
});

describe('coalescing and bounds', () => {
  test('100 concurrent misses of one key call load once and all get its bytes', async () => {
    const { cache } = setup();
    const gate = Promise.withResolvers<unknown>();
    let calls = 0;
    const load = () => {
      calls += 1;
      return gate.promise;
    };
    const pending = Array.from({ length: 100 }, () => cache.fetch('k', POLICY, load));
    gate.resolve({ big: 'x'.repeat(1000) });
    const results = await Promise.all(pending);
    assert.equal(calls, 1);
    assert.equal(new Set(results.map((r) => r.etag)).size, 1);
    assert.ok(results.every((r) => r.status === 'miss'));
  });

  test('100 concurrent misses that fail share one load and one error', async () => {
    const { cache } = setup();
    let calls = 0;
    const load = async () => {
      calls += 1;
      throw new AppError('upstream_error', 'Upstream error.');
    };
    const settled = await Promise.allSettled(Array.from({ length: 100 }, () => cache.fetch('k', POLICY, load)));
    assert.equal(calls, 1);
    assert.ok(settled.every((s) => s.status === 'rejected'));
  });

  test('through the cache, the memory store stays within maxBytes for many distinct keys', async () => {
    const maxBytes = 32 * 1024;
    const store = createMemoryStore({ maxBytes });
    const { cache } = setup({ store });
    for (let i = 0; i < 2000; i += 1) {
      await cache.fetch(`op:video:${i}`, POLICY, async () => ({ id: i, pad: 'p'.repeat(i % 700) }));
      assert.ok(store.sizeBytes() <= maxBytes);
    }
    assert.equal((await cache.fetch('op:video:1999', POLICY, async () => 'unused')).status, 'hit');
  });

  test('a failing store degrades to uncached answers', async () => {
    const broken: ByteStore = {
      get: async () => {
        throw new Error('connection lost');
      },
      set: async () => {
        throw new Error('connection lost');
      },
      delete: async () => {},
      close: async () => {},
    };
    const { cache } = setup({ store: broken });
    const result = await cache.fetch('k', POLICY, async () => 'live');
    assert.equal(result.status, 'miss');
    assert.deepEqual(json(result.body), 'live');
  });
});

test('events report hit, miss, stale and revalidated per fetch', async () => {
  const { cache, events, advanceSeconds, nextEvent } = setup();
  await cache.fetch('k', POLICY, async () => 1);
  await cache.fetch('k', POLICY, async () => 1);
  advanceSeconds(61);
  const revalidated = nextEvent('revalidated');
  await cache.fetch('k', POLICY, async () => 2);
  await revalidated;
  assert.deepEqual(events.map((e) => e.status), ['miss', 'hit', 'stale', 'revalidated']);
  assert.ok(events.every((e) => e.key === 'k'));
});

test('each fetch is one lookup: a hit when stored bytes answer, a miss when it waits on a load', async () => {
  const { cache, lookups, advanceSeconds, nextEvent } = setup();
  await cache.fetch('k', POLICY, async () => 1);
  await cache.fetch('k', POLICY, async () => 1);
  advanceSeconds(61);
  const revalidated = nextEvent('revalidated');
  await cache.fetch('k', POLICY, async () => 2);
  await revalidated;
  assert.deepEqual(lookups, [false, true, true], 'miss, fresh hit, stale-while-revalidate hit (the refresh is no lookup)');
  const gone = async () => {
    throw new AppError('not_found', 'No such video.');
  };
  await assert.rejects(cache.fetch('missing', POLICY, gone));
  await assert.rejects(cache.fetch('missing', POLICY, gone));
  assert.deepEqual(lookups.slice(3), [false, true], 'a remembered absence is a hit');
  const gate = Promise.withResolvers<unknown>();
  const joined = [cache.fetch('j', POLICY, () => gate.promise), cache.fetch('j', POLICY, () => gate.promise)];
  gate.resolve('v');
  await Promise.all(joined);
  assert.deepEqual(lookups.slice(5), [false, false], 'joining a load in flight is a miss too');
});

describe('fetchValue (platform data an operation maps)', () => {
  /** A store that records what it holds when asked, to see when an entry was written. */
  function recordingStore() {
    const inner = createMemoryStore({ maxBytes: 1 << 20 });
    const writes: string[] = [];
    const store: ByteStore = {
      get: (key) => inner.get(key),
      set: async (key, entry, ttl) => {
        writes.push(key);
        await inner.set(key, entry, ttl);
      },
      delete: (key) => inner.delete(key),
      close: () => inner.close(),
    };
    return { store, inner, writes };
  }

  test('a miss hands the value over before the entry is stored; the entry follows, without an ETag', async () => {
    const { store, inner, writes } = recordingStore();
    const { cache } = setup({ store });
    const value = { items: ['a', 'é😀'], n: 1 };
    const got = await cache.fetchValue('up:k', POLICY, async () => value);
    assert.equal(got.status, 'miss');
    assert.equal(got.value, value, 'the loaded object itself, not a parsed copy');
    assert.deepEqual(writes, [], 'not yet serialised or stored');
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.deepEqual(writes, ['up:k']);
    const stored = await inner.get('up:k');
    assert.deepEqual(json(stored!.body), value);
    assert.equal(stored!.etag, '');
    const hit = await cache.fetchValue('up:k', POLICY, async () => assert.fail('loaded twice'));
    assert.equal(hit.status, 'hit');
    assert.deepEqual(hit.value, value);
  });

  test('callers arriving before the entry is stored share the one load', async () => {
    const { store, writes } = recordingStore();
    const { cache } = setup({ store });
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const load = async () => {
      calls++;
      await gate;
      return { n: calls };
    };
    const first = cache.fetchValue('up:k', POLICY, load);
    const second = cache.fetchValue('up:k', POLICY, load);
    release();
    const [a, b] = await Promise.all([first, second]);
    // In the window between hand-over and store: still the same load.
    const third = await cache.fetchValue('up:k', POLICY, load);
    assert.deepEqual([a.value, b.value, third.value], [{ n: 1 }, { n: 1 }, { n: 1 }]);
    assert.equal(calls, 1);
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.deepEqual(writes, ['up:k']);
  });

  test('a failed load rejects every caller and stores nothing; stale-if-error still applies', async () => {
    const { cache, advanceSeconds } = setup();
    await assert.rejects(cache.fetchValue('up:k', POLICY, async () => {
      throw new AppError('upstream_error', 'boom');
    }), /boom/);
    await cache.fetchValue('up:k', POLICY, async () => 'old');
    await new Promise<void>((resolve) => setImmediate(resolve));
    advanceSeconds(60 + 30 + 1);
    const stale = await cache.fetchValue('up:k', POLICY, async () => {
      throw new AppError('upstream_error', 'down');
    });
    assert.equal(stale.status, 'stale');
    assert.equal(stale.value, 'old');
  });

  test('a value handed over but not yet stored is a hit while fresh; once stored and past its windows it loads again', async () => {
    const { cache, advanceSeconds } = setup();
    let calls = 0;
    const load = async () => ({ n: ++calls });
    await cache.fetchValue('up:k', POLICY, load);
    // No turn of the event loop in between: the entry is not stored yet.
    const hit = await cache.fetchValue('up:k', POLICY, load);
    assert.equal(hit.status, 'hit');
    assert.deepEqual(hit.value, { n: 1 });
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    advanceSeconds(60 + 30 + 1);
    const again = await cache.fetchValue('up:k', POLICY, load);
    assert.equal(again.status, 'miss');
    assert.deepEqual(again.value, { n: 2 });
  });

  test('with a coalescer that starts the load later (a Redis lock), the value is still handed over before it is stored', async () => {
    const { store, writes } = recordingStore();
    const local = createLocalCoalescer();
    const cache = createResponseCache({
      store,
      coalescer: {
        run: async (key, fn, peek, signal) => {
          await new Promise<void>((resolve) => setTimeout(resolve, 5));
          return local.run(key, fn, peek, signal);
        },
        close: () => local.close(),
      },
    });
    const got = await cache.fetchValue('up:k', POLICY, async () => 'v');
    assert.equal(got.value, 'v');
    assert.deepEqual(writes, [], 'handed over before the store');
    await new Promise<void>((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(writes, ['up:k']);
  });

  test('fetch keeps its SHA-256 ETag', async () => {
    const { cache } = setup();
    const result = await cache.fetch('op:k', POLICY, async () => ({ a: 1 }));
    assert.equal(result.etag, etagOf(result.body));
  });
});
