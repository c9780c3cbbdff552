// Coalescing across nodes: two coalescers (and two response caches) on separate Redis connections
// stand in for two processes; identical concurrent work must run once in total.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { AppError } from '../../src/errors.ts';
import { createLocalCoalescer, createRedisCoalescer, type CoalescedJoin, type Coalescer } from '../../src/cache/coalescer.ts';
import { createRedisStore } from '../../src/cache/redis-store.ts';
import { createResponseCache } from '../../src/cache/response-cache.ts';
import type { ByteStore, CachePolicy, ResponseCache } from '../../src/cache/types.ts';
import { connectRedis, deletePrefix, REDIS_URL, uniquePrefix } from './redis-connection.ts';

const POLICY: CachePolicy = { ttlSeconds: 60, staleWhileRevalidateSeconds: 60, staleIfErrorSeconds: 600 };

const probe = await connectRedis();

describe('cross-process coalescing over Redis', { skip: probe === undefined ? 'Redis unreachable' : false }, () => {
  const clients: Redis[] = [];
  const closers: Array<() => Promise<void>> = [];
  const prefixes: string[] = [];
  const node = () => {
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    clients.push(redis);
    return redis;
  };
  const prefix = (label: string) => {
    const p = uniquePrefix(label);
    prefixes.push(p);
    return p;
  };
  const coalescer = (redis: Redis, p: string, extra: { waitMs?: number } = {}): Coalescer => {
    const c = createRedisCoalescer({ redis, prefix: p, lockTtlMs: 10_000, waitMs: 5_000, ...extra });
    closers.push(() => c.close());
    return c;
  };

  after(async () => {
    for (const close of closers) await close();
    for (const p of prefixes) await deletePrefix(probe!, p);
    for (const c of clients) c.disconnect();
    await probe?.quit();
  });

  test('a node that waits on work another node holds reports one cluster join; its own callers join in process', async () => {
    const p = prefix('joins');
    const shared = createRedisStore({ redis: node(), prefix: p });
    const joins: CoalescedJoin[] = [];
    const onJoin = (join: CoalescedJoin) => joins.push(join);
    const a = coalescer(node(), p);
    const b = createRedisCoalescer({ redis: node(), prefix: p, lockTtlMs: 10_000, waitMs: 5_000, local: createLocalCoalescer({ onJoin }), hooks: { onJoin } });
    closers.push(() => b.close());
    const started = Promise.withResolvers<void>();
    const gate = Promise.withResolvers<void>();
    const fn = async () => {
      started.resolve();
      await gate.promise;
      await shared.set('k', { body: Buffer.from('v'), etag: '"e"', storedAtMs: Date.now() }, 60);
      return 'v';
    };
    const peek = async () => (await shared.get('k'))?.body.toString();
    const holder = a.run('k', fn, peek);
    await started.promise;
    const waiters = [b.run('k', fn, peek), b.run('k', fn, peek)];
    gate.resolve();
    assert.deepEqual(await Promise.all([holder, ...waiters]), ['v', 'v', 'v']);
    assert.deepEqual(joins.map((j) => j.scope).sort(), ['cluster', 'process']);
    assert.ok(joins.every((j) => j.key === 'k' && j.startedBy === undefined));
  });

  test('2×50 concurrent identical calls on two nodes run fn once; waiters read its result', async () => {
    const p = prefix('coalesce');
    const shared = createRedisStore({ redis: node(), prefix: p });
    const [a, b] = [coalescer(node(), p), coalescer(node(), p)];
    let calls = 0;
    const started = Promise.withResolvers<void>();
    const waiterPeeked = Promise.withResolvers<void>();
    const gate = Promise.withResolvers<void>();
    const fn = async () => {
      calls += 1;
      started.resolve();
      await gate.promise;
      const value = `v${calls}`;
      await shared.set('k', { body: Buffer.from(value), etag: '"e"', storedAtMs: Date.now() }, 60);
      return value;
    };
    const peekFrom = (onPeek: () => void) => async () => {
      onPeek();
      return (await shared.get('k'))?.body.toString();
    };
    const fromA = Array.from({ length: 50 }, () => a.run('k', fn, peekFrom(() => {})));
    await started.promise;
    const fromB = Array.from({ length: 50 }, () => b.run('k', fn, peekFrom(() => waiterPeeked.resolve())));
    await waiterPeeked.promise;
    gate.resolve();
    const values = await Promise.all([...fromA, ...fromB]);
    assert.equal(calls, 1);
    assert.deepEqual(new Set(values), new Set(['v1']));
  });

  test('a failure on the lock holder reaches the waiting node as the same AppError code', async () => {
    const p = prefix('coalesce-error');
    const [a, b] = [coalescer(node(), p), coalescer(node(), p)];
    let calls = 0;
    const started = Promise.withResolvers<void>();
    const waiterPeeked = Promise.withResolvers<void>();
    const gate = Promise.withResolvers<void>();
    const fn = async (): Promise<string> => {
      calls += 1;
      started.resolve();
      await gate.promise;
      throw new AppError('upstream_blocked', 'The platform refused the request.');
    };
    const holder = a.run('k', fn, async () => undefined);
    await started.promise;
    const waiter = b.run('k', fn, async () => {
      waiterPeeked.resolve();
      return undefined;
    });
    await waiterPeeked.promise;
    gate.resolve();
    await assert.rejects(holder, { code: 'upstream_blocked' });
    await assert.rejects(waiter, { code: 'upstream_blocked', message: 'The platform refused the request.' });
    assert.equal(calls, 1);
  });

  test('a waiter takes over when the holder disappears without a word', async () => {
    const p = prefix('coalesce-vanish');
    const redis = node();
    await redis.set(`${p}lock:k`, 'token-of-a-crashed-node', 'PX', 60_000);
    const b = coalescer(node(), p);
    let peeks = 0;
    const firstPeek = Promise.withResolvers<void>();
    const result = b.run('k', async () => 'ran-here', async () => {
      peeks += 1;
      firstPeek.resolve();
      return undefined;
    });
    await firstPeek.promise;
    await redis.del(`${p}lock:k`);
    assert.equal(await result, 'ran-here');
    assert.ok(peeks >= 1);
  });

  test('a waiter runs fn itself once waitMs has passed', async () => {
    const p = prefix('coalesce-timeout');
    await node().set(`${p}lock:k`, 'held-forever', 'PX', 60_000);
    const b = coalescer(node(), p, { waitMs: 150 });
    assert.equal(await b.run('k', async () => 'ran-after-waiting', async () => undefined), 'ran-after-waiting');
  });

  test('a lock whose SET reached Redis but whose reply was lost is released at the next call, so no caller waits it out', async () => {
    const p = prefix('coalesce-lost-reply');
    const real = node();
    let loseSetReplies = true;
    // The SET is applied, then the reply is lost: what a cut connection or a command timeout does.
    const flaky = new Proxy(real, {
      get(target, prop) {
        if (prop === 'set' && loseSetReplies) {
          return async (...args: Parameters<Redis['set']>) => {
            await (target.set as (...a: unknown[]) => Promise<unknown>)(...args);
            throw new Error('Command timed out');
          };
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    let joins = 0;
    const c = createRedisCoalescer({ redis: flaky, subscriber: node(), prefix: p, lockTtlMs: 60_000, waitMs: 200, hooks: { onJoin: () => void (joins += 1) } });
    closers.push(() => c.close());
    assert.equal(await c.run('k', async () => 'ran-without-the-lock'), 'ran-without-the-lock');
    assert.equal(await probe!.exists(`${p}lock:k`), 1, 'the lost reply left a lock in Redis');
    loseSetReplies = false;
    assert.equal(await c.run('k', async () => 'ran-again'), 'ran-again');
    assert.equal(joins, 0, 'the second call found no lock to wait for');
    assert.equal(await probe!.exists(`${p}lock:k`), 0);
  });

  test('with Redis unreachable, calls still run (coalesced in-process only)', async () => {
    const offline = new Redis(REDIS_URL, { lazyConnect: true, enableOfflineQueue: false });
    clients.push(offline);
    const c = createRedisCoalescer({ redis: offline, subscriber: offline, prefix: prefix('offline') });
    let calls = 0;
    const fn = async () => {
      calls += 1;
      return 'ok';
    };
    const values = await Promise.all([c.run('k', fn), c.run('k', fn)]);
    assert.deepEqual(values, ['ok', 'ok']);
    assert.equal(calls, 1);
  });

  test('two response caches sharing Redis load a missing key once for 2×50 concurrent fetches', async () => {
    const p = prefix('response-cache');
    let bReads = 0;
    const waiterPeeked = Promise.withResolvers<void>();
    const makeCache = (onRead?: () => void): ResponseCache => {
      const redis = node();
      const inner = createRedisStore({ redis, prefix: p });
      const store: ByteStore = {
        ...inner,
        get: (key) => {
          onRead?.();
          return inner.get(key);
        },
      };
      const cache = createResponseCache({ store, coalescer: createRedisCoalescer({ redis, prefix: p }) });
      closers.push(() => cache.close());
      return cache;
    };
    const cacheA = makeCache();
    // Each of node B's 50 fetches reads once on arrival; the 51st read is its peek while waiting.
    const cacheB = makeCache(() => {
      bReads += 1;
      if (bReads > 50) waiterPeeked.resolve();
    });
    let loads = 0;
    const started = Promise.withResolvers<void>();
    const gate = Promise.withResolvers<void>();
    const load = async () => {
      loads += 1;
      started.resolve();
      await gate.promise;
      return { id: 'video-1', loads };
    };
    const fromA = Array.from({ length: 50 }, () => cacheA.fetch('op:video:1', POLICY, load));
    await started.promise;
    const fromB = Array.from({ length: 50 }, () => cacheB.fetch('op:video:1', POLICY, load));
    await waiterPeeked.promise;
    gate.resolve();
    const results = await Promise.all([...fromA, ...fromB]);
    assert.equal(loads, 1);
    assert.equal(new Set(results.map((r) => r.etag)).size, 1);
    assert.deepEqual(JSON.parse(results[99].body.toString()), { id: 'video-1', loads: 1 });
    assert.equal((await cacheB.fetch('op:video:1', POLICY, load)).status, 'hit');
  });
});
