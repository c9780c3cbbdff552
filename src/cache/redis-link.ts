// The node's connection to Redis and what it knows of Redis's health: short timeouts, no offline
// queue, and an up/down flag so that while Redis is down the node serves from memory at once.
import { Redis, ReplyError } from 'ioredis';
import type { CacheLogger } from './types.ts';

export type RedisLinkLogger = CacheLogger & { info(details: Record<string, unknown>, message: string): void };

export type RedisLinkOptions = {
  url: string;
  logger: RedisLinkLogger;
  /** How long one command may wait for its reply before Redis counts as down. */
  commandTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Cap of the reconnect backoff: Redis is found again at most this long after it returns. */
  reconnectMaxMs?: number;
};

export type RedisLinkStats = {
  /** Outage episodes since start (each logged once). */
  outages: number;
  /** Commands that failed for want of Redis (timeouts, closed connections) while it was thought up. */
  failedCommands: number;
  /** Commands that waited their whole timeout for a reply (each one a caller that waited). */
  timedOutCommands: number;
};

export type RedisLink = {
  readonly client: Redis;
  /** Another connection with the same settings and listeners (for subscriber mode). */
  duplicate(): Redis;
  isUp(): boolean;
  /** `viaRedis` while Redis is up; `locally` while it is down or when `viaRedis` finds it down. */
  attempt<T>(viaRedis: () => Promise<T>, locally: () => Promise<T>): Promise<T>;
  /** A Redis call failed: a connection fault marks Redis down (a reply error does not). */
  reportFailure(error: unknown): void;
  /** Calls `listener` on every change between up and down. */
  onChange(listener: (up: boolean) => void): void;
  stats(): RedisLinkStats;
  disconnect(): void;
};

/** `host:port/db` of a Redis URL, never its password. */
export function describeRedisUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || 6379}${parsed.pathname.length > 1 ? parsed.pathname : ''}`;
}

/** A reply is Redis answering (WRONGTYPE, NOSCRIPT…): the connection itself is fine. */
export function isConnectionFault(error: unknown): boolean {
  return error instanceof Error && !(error instanceof ReplyError);
}

/**
 * Connects (rejecting with the reason, without the URL's password, if Redis cannot be reached now)
 * and keeps reconnecting in the background after any later loss.
 */
export async function connectRedisLink(options: RedisLinkOptions): Promise<RedisLink> {
  const { url, logger, commandTimeoutMs = 1000, connectTimeoutMs = 1000, reconnectMaxMs = 2000 } = options;
  const where = describeRedisUrl(url);
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: connectTimeoutMs,
    commandTimeout: commandTimeoutMs,
    // Commands fail at once while disconnected instead of queueing behind a reconnect…
    enableOfflineQueue: false,
    // …and those in flight when the connection drops fail at once instead of being retried.
    maxRetriesPerRequest: 0,
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 10), reconnectMaxMs),
  });
  let up = false;
  /** The first ready is the start, not a recovery; a shutdown's close is not an outage. */
  let started = false;
  let closing = false;
  let lastError: Error | undefined;
  const stats: RedisLinkStats = { outages: 0, failedCommands: 0, timedOutCommands: 0 };
  const listeners: ((up: boolean) => void)[] = [];

  const setUp = (next: boolean, error?: unknown) => {
    if (next === up || closing) return;
    up = next;
    if (next && !started) started = true;
    else if (next) logger.info({ redis: where }, 'redis reachable again: cache, coalescing and rate limits are shared again');
    else {
      stats.outages += 1;
      logger.warn({ redis: where, err: reasonOf(error, url) }, 'redis unreachable: serving from this node\'s memory cache, coalescing and rate limits until it returns');
    }
    for (const listener of listeners) listener(next);
  };

  client.on('error', (error: Error) => {
    lastError = error;
    setUp(false, error);
  });
  client.on('close', () => setUp(false, lastError ?? new Error('connection closed')));
  client.on('ready', () => setUp(true));

  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new Error(`Cannot connect to Redis at ${where} (REELAY_REDIS_URL): ${reasonOf(lastError ?? error, url)}`);
  }

  const link: RedisLink = {
    client,
    duplicate() {
      const copy = client.duplicate({ lazyConnect: false });
      // Its failures are the same outage as the main connection's, which is what gets logged.
      copy.on('error', () => {});
      return copy;
    },
    isUp: () => up,
    async attempt(viaRedis, locally) {
      if (!up) return locally();
      try {
        return await viaRedis();
      } catch (error) {
        if (!isConnectionFault(error)) throw error;
        link.reportFailure(error);
        return locally();
      }
    },
    reportFailure(error) {
      if (!isConnectionFault(error)) return;
      if ((error as Error).message === 'Command timed out') stats.timedOutCommands += 1;
      if (!up) return;
      stats.failedCommands += 1;
      setUp(false, error);
      // A command that timed out on an open socket (Redis stalled, packets dropped) leaves ioredis
      // "ready": reconnect, so that its ready event is what says Redis is back.
      if (client.status === 'ready') client.disconnect(true);
    },
    onChange(listener) {
      listeners.push(listener);
    },
    stats: () => ({ ...stats }),
    disconnect() {
      closing = true;
      client.disconnect();
    },
  };
  return link;
}

/** An error's message without the URL's password (ioredis may echo the URL in some messages). */
function reasonOf(error: unknown, url: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const password = decodeURIComponent(new URL(url).password);
  return password === '' ? message : message.replaceAll(password, '***');
}
