// Single-flight for identical work: in one process (a map of in-flight promises) and across
// processes (a Redis lock per key, a completion message on a channel, polling as a fallback).
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { createSharedSignal, untilAborted } from '../abort.ts';
import { AppError, ERROR_CODES, isAppError, type ErrorCode } from '../errors.ts';
import type { CacheLogger } from './types.ts';

/**
 * `run` calls `fn` once for all concurrent callers of `key` and gives each the same outcome.
 * Across processes the result itself never travels: a caller that waited on another process's run
 * calls `peek` (e.g. re-reads the shared store) to obtain it; if there is no `peek`, or it finds
 * nothing, the waiter runs `fn` itself. Failures do travel, as the AppError code and public message.
 *
 * A caller whose `signal` aborts stops waiting at once (rejected with the signal's reason); `fn`
 * gets a signal that aborts only when every caller sharing it has aborted, so the work stops once
 * nobody wants it and never while someone still does.
 */
export type Coalescer = {
  run<T>(key: string, fn: (signal: AbortSignal) => Promise<T>, peek?: () => Promise<T | undefined>, signal?: AbortSignal): Promise<T>;
  close(): Promise<void>;
};

/** A caller that joined work already in flight: in this process, or held by another node (`cluster`). */
export type CoalescedJoin = { key: string; scope: 'process' | 'cluster'; startedBy: string | undefined };

/** Observers of coalescing (metrics, logs); they never change what runs. Called in the caller's context. */
export type CoalescerHooks = {
  /** A caller starts new work for `key`; what it returns is handed to the callers that join it. */
  onStart?: (key: string) => string | undefined;
  onJoin?: (join: CoalescedJoin) => void;
};

export function createLocalCoalescer(hooks: CoalescerHooks = {}): Coalescer {
  type Running = { work: Promise<unknown>; signal: AbortSignal; join(signal: AbortSignal | undefined): void; startedBy: string | undefined };
  const inFlight = new Map<string, Running>();
  return {
    run<T>(key: string, fn: (signal: AbortSignal) => Promise<T>, _peek?: unknown, signal?: AbortSignal): Promise<T> {
      let running = inFlight.get(key);
      if (running !== undefined && !running.signal.aborted) hooks.onJoin?.({ key, scope: 'process', startedBy: running.startedBy });
      // Work everyone gave up on is winding down: a new caller gets work of its own.
      if (running === undefined || running.signal.aborted) {
        const shared = createSharedSignal();
        const started: Running = { work: Promise.resolve(), signal: shared.signal, join: shared.join, startedBy: hooks.onStart?.(key) };
        inFlight.set(key, started);
        started.work = (async () => {
          try {
            return await fn(shared.signal);
          } finally {
            if (inFlight.get(key) === started) inFlight.delete(key);
          }
        })();
        running = started;
      }
      running.join(signal);
      return untilAborted(running.work as Promise<T>, signal, (s) => s.reason);
    },
    async close() {},
  };
}

export type RedisCoalescerOptions = {
  redis: Redis;
  /** Connection in subscriber mode for completion messages; by default a duplicate of `redis`. */
  subscriber?: Redis;
  /** Collapses callers inside this process first, so one caller per process contends for the lock. */
  local?: Coalescer;
  prefix?: string;
  /** Lock lifetime; longer than the slowest `fn` (upstream timeout and retries), or a second run may start. */
  lockTtlMs?: number;
  /** How long a waiter waits for another process before running `fn` itself. */
  waitMs?: number;
  pollInitialMs?: number;
  pollMaxMs?: number;
  logger?: CacheLogger;
  /** False while Redis is known down: callers then coalesce in this process only, without asking it. */
  available?: () => boolean;
  /**
   * Told of every failed Redis call (so a health flag can trip); when given, it is also what
   * reports them, and the coalescer does not log each one.
   */
  onRedisFailure?: (error: unknown) => void;
  /** Told when this node waits on work another node holds the lock for (`scope: 'cluster'`). */
  hooks?: Pick<CoalescerHooks, 'onJoin'>;
};

/** Deletes the lock only if it is still ours, so a late finisher never frees someone else's lock. */
const RELEASE_SCRIPT = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
/** Bound on remembered unreleased locks (one per key whose work spanned a Redis outage). */
const ORPHANS_MAX = 10_000;

const doneMessageSchema = z.object({
  key: z.string(),
  error: z.object({ code: z.string(), message: z.string(), retryAfterSeconds: z.number().optional() }).optional(),
});
type DoneMessage = z.infer<typeof doneMessageSchema>;

type Mailbox = { take(): DoneMessage | undefined; wait(ms: number): Promise<void>; dispose(): void };

type DoneListener = {
  /** Starts listening for `key` before the caller looks at the lock, so no message slips past. */
  open(key: string): Promise<Mailbox>;
  close(): Promise<void>;
};

/** One subscription per process on one channel; messages are routed to waiters by key. */
function createDoneListener(subscriber: Redis, ownsSubscriber: boolean, channel: string, logger?: CacheLogger): DoneListener {
  const listeners = new Map<string, Set<(message: DoneMessage) => void>>();
  let subscribed: Promise<void> | undefined;
  const onMessage = (from: string, raw: string) => {
    if (from !== channel) return;
    const message = parseDone(raw);
    if (message !== undefined) for (const listener of listeners.get(message.key) ?? []) listener(message);
  };
  subscriber.on('message', onMessage);

  function subscribe(): Promise<void> {
    subscribed ??= subscriber.subscribe(channel).then(
      () => undefined,
      (err: unknown) => {
        // Polling still finds the result; the next wait tries to subscribe again.
        logger?.warn({ err }, 'coalescer: subscribe failed; waiting by polling only');
        subscribed = undefined;
      },
    );
    return subscribed;
  }

  return {
    async open(key) {
      const mailbox = openMailbox(key, listeners);
      await subscribe();
      return mailbox;
    },
    async close() {
      subscriber.off('message', onMessage);
      if (ownsSubscriber) subscriber.disconnect();
      else await subscriber.unsubscribe(channel).catch(() => undefined);
    },
  };
}

function openMailbox(key: string, listeners: Map<string, Set<(message: DoneMessage) => void>>): Mailbox {
  let received: DoneMessage | undefined;
  let wake: (() => void) | undefined;
  const listener = (message: DoneMessage) => {
    received = message;
    wake?.();
  };
  const set = listeners.get(key) ?? new Set();
  set.add(listener);
  listeners.set(key, set);
  return {
    take() {
      const message = received;
      received = undefined;
      return message;
    },
    wait(ms) {
      if (received !== undefined) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(done, ms);
        wake = done;
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
      });
    },
    dispose() {
      set.delete(listener);
      if (set.size === 0) listeners.delete(key);
    },
  };
}

export function createRedisCoalescer(options: RedisCoalescerOptions): Coalescer {
  const { redis, prefix = 'reelay:coalesce:', lockTtlMs = 30_000, waitMs = 10_000, available = () => true } = options;
  const { logger } = options;
  const onRedisFailure = options.onRedisFailure ?? (() => {});
  /** Redis failures are logged here only when no one else reports them (once per outage). */
  const failureLogger = options.onRedisFailure === undefined ? logger : undefined;
  const { pollInitialMs = 20, pollMaxMs = 250 } = options;
  const local = options.local ?? createLocalCoalescer();
  const channel = `${prefix}done`;
  const done = createDoneListener(options.subscriber ?? redis.duplicate(), options.subscriber === undefined, channel, failureLogger);

  async function tryLock(lockKey: string, token: string): Promise<boolean> {
    return (await redis.set(lockKey, token, 'PX', lockTtlMs, 'NX')) === 'OK';
  }

  async function finish(key: string, lockKey: string, token: string, err: unknown): Promise<void> {
    const message: DoneMessage = { key, ...(err === undefined ? {} : { error: describeError(err) }) };
    try {
      await redis.eval(RELEASE_SCRIPT, 1, lockKey, token);
      await redis.publish(channel, JSON.stringify(message));
    } catch (cause) {
      remember(lockKey, token);
      onRedisFailure(cause);
      failureLogger?.warn({ err: cause }, 'coalescer: releasing the lock failed; waiters fall back to polling');
    }
  }

  /**
   * Locks whose release failed (Redis went away while their work ran), and locks whose taking
   * failed without a reply (they may be held all the same). Left alone they would hold
   * their key for the whole lock lifetime after Redis returns, and every caller of that key would
   * wait it out: they are released as soon as Redis answers again.
   */
  const orphans = new Map<string, { lockKey: string; expiresAtMs: number }>(); // by token

  function remember(lockKey: string, token: string): void {
    if (orphans.size >= ORPHANS_MAX) orphans.delete(orphans.keys().next().value as string);
    orphans.set(token, { lockKey, expiresAtMs: Date.now() + lockTtlMs });
  }

  async function releaseOrphans(): Promise<void> {
    for (const [token, { lockKey, expiresAtMs }] of orphans) {
      if (expiresAtMs > Date.now()) await redis.eval(RELEASE_SCRIPT, 1, lockKey, token);
      orphans.delete(token);
    }
  }

  async function runHolding<T>(
    key: string,
    lockKey: string,
    token: string,
    fn: (signal: AbortSignal) => Promise<T>,
    peek: (() => Promise<T | undefined>) | undefined,
    signal: AbortSignal,
  ): Promise<T> {
    let value: T;
    try {
      // Another node may have finished between our caller's miss and our lock: use its result.
      const earlier = peek === undefined ? undefined : await peek();
      value = earlier !== undefined ? earlier : await fn(signal);
    } catch (err) {
      await finish(key, lockKey, token, err);
      throw err;
    }
    await finish(key, lockKey, token, undefined);
    return value;
  }

  async function waitForOther<T>(
    key: string,
    lockKey: string,
    token: string,
    fn: (signal: AbortSignal) => Promise<T>,
    peek: (() => Promise<T | undefined>) | undefined,
    signal: AbortSignal,
  ): Promise<T> {
    const mailbox = await done.open(key);
    try {
      const deadline = Date.now() + waitMs;
      let delayMs = pollInitialMs;
      // Bounded by the deadline; the count bound guards against a clock that stands still.
      for (let round = 0; round < 10_000 && Date.now() < deadline && !signal.aborted; round += 1) {
        const message = mailbox.take();
        if (message?.error !== undefined) throw toAppErrorFromMessage(message.error);
        const found = peek === undefined ? undefined : await peek();
        if (found !== undefined) return found;
        // The holder finished (its result may be gone already) or vanished: try to become the holder.
        if (!available()) break;
        const locked = await tryLock(lockKey, token).catch((error: unknown) => {
          remember(lockKey, token);
          onRedisFailure(error);
        });
        if (locked === undefined) break;
        if (locked) return await runHolding(key, lockKey, token, fn, peek, signal);
        await mailbox.wait(Math.min(delayMs, Math.max(0, deadline - Date.now())));
        delayMs = Math.min(delayMs * 2, pollMaxMs);
      }
    } finally {
      mailbox.dispose();
    }
    if (signal.aborted) throw signal.reason;
    if (available()) logger?.warn({ waitMs }, 'coalescer: gave up waiting for another node (or Redis failed); running locally');
    return fn(signal);
  }

  async function runDistributed<T>(
    key: string,
    fn: (signal: AbortSignal) => Promise<T>,
    peek: (() => Promise<T | undefined>) | undefined,
    signal: AbortSignal,
  ): Promise<T> {
    // Redis being down must not take answers down with it, nor make each one wait on it first:
    // coalesce in-process only (local.run already collapsed this process's callers).
    if (!available()) return fn(signal);
    const lockKey = `${prefix}lock:${key}`;
    const token = randomUUID();
    let locked: boolean;
    try {
      if (orphans.size > 0) await releaseOrphans();
      locked = await tryLock(lockKey, token);
    } catch (err) {
      // The SET may have reached Redis with only its reply lost (a cut or a timeout), or be resent
      // by the client once Redis is back: either way a lock nobody would release. Remember it.
      remember(lockKey, token);
      onRedisFailure(err);
      failureLogger?.warn({ err }, 'coalescer: lock unavailable; coalescing in this process only');
      return fn(signal);
    }
    if (locked) return runHolding(key, lockKey, token, fn, peek, signal);
    // The holder's request id stays on its node: its logs there carry it.
    options.hooks?.onJoin?.({ key, scope: 'cluster', startedBy: undefined });
    return waitForOther(key, lockKey, token, fn, peek, signal);
  }

  return {
    run(key, fn, peek, signal) {
      return local.run(key, (shared) => runDistributed(key, fn, peek, shared), undefined, signal);
    },
    async close() {
      await done.close();
      await local.close();
    },
  };
}

function parseDone(raw: string): DoneMessage | undefined {
  try {
    const parsed = doneMessageSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function describeError(err: unknown): NonNullable<DoneMessage['error']> {
  if (!isAppError(err)) return { code: 'internal', message: 'An internal error occurred.' };
  return { code: err.code, message: err.message, retryAfterSeconds: err.retryAfterSeconds };
}

function toAppErrorFromMessage(error: NonNullable<DoneMessage['error']>): AppError {
  const code: ErrorCode = Object.hasOwn(ERROR_CODES, error.code) ? (error.code as ErrorCode) : 'internal';
  return new AppError(code, error.message, { retryAfterSeconds: error.retryAfterSeconds });
}
