// The per-key media byte budget: bytes a key may download per window, counted in this process or in
// Redis (shared by every node). A transfer reserves its length up front and gets back what it did
// not send, so a refused download costs nothing and an interrupted one only what it carried.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export type BudgetDecision = {
  allowed: boolean;
  /** Bytes per window. */
  limit: number;
  /** Bytes left in this window after the reservation (before it, when refused). */
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
};

export type ByteBudget = {
  readonly limit: number;
  readonly windowSeconds: number;
  /** Takes `bytes` from the key's budget, or refuses (taking nothing) when fewer are left. */
  reserve(keyId: string, bytes: number): Promise<BudgetDecision>;
  /** Counts bytes whose length was not known before they were sent; never refuses. */
  charge(keyId: string, bytes: number): Promise<void>;
  /** Gives back reserved bytes that were not sent. */
  refund(keyId: string, bytes: number): Promise<void>;
};

export type ByteBudgetOptions = {
  bytesPerWindow: number;
  windowSeconds?: number;
  redis?: Redis;
  /** False while Redis is known down: this node then counts alone. */
  available?: () => boolean;
  onRedisFailure?: (error: unknown) => void;
  keyPrefix?: string;
};

type Limiter = RateLimiterMemory | RateLimiterRedis;

export function createByteBudget(options: ByteBudgetOptions): ByteBudget {
  const { bytesPerWindow: limit, windowSeconds = 3600, redis, available = () => true, onRedisFailure = () => {}, keyPrefix = 'reelay:media-bytes' } = options;
  const memory = new RateLimiterMemory({ points: limit, duration: windowSeconds, keyPrefix });
  const shared = redis === undefined ? undefined : new RateLimiterRedis({ storeClient: redis, points: limit, duration: windowSeconds, keyPrefix, rejectIfRedisNotReady: true });

  /** Runs on Redis when it is up, on this node's counters otherwise (as the request limits do). */
  async function withLimiter<T>(run: (limiter: Limiter) => Promise<T>): Promise<T> {
    if (shared === undefined || !available()) return run(memory);
    try {
      return await run(shared);
    } catch (error) {
      if (error instanceof RateLimiterRes) throw error;
      onRedisFailure(error);
      return run(memory);
    }
  }

  const decision = (allowed: boolean, res: RateLimiterRes): BudgetDecision => ({
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  });

  return {
    limit,
    windowSeconds,
    async reserve(keyId, bytes) {
      return withLimiter(async (limiter) => {
        try {
          return decision(true, await limiter.consume(keyId, bytes));
        } catch (outcome) {
          if (!(outcome instanceof RateLimiterRes)) throw outcome;
          // The refused reservation was counted: give it back, so a refusal costs nothing.
          const restored = await limiter.reward(keyId, bytes);
          return decision(false, restored);
        }
      });
    },
    async charge(keyId, bytes) {
      if (bytes <= 0) return;
      await withLimiter((limiter) => limiter.penalty(keyId, bytes)).catch(() => undefined);
    },
    async refund(keyId, bytes) {
      if (bytes <= 0) return;
      await withLimiter((limiter) => limiter.reward(keyId, bytes)).catch(() => undefined);
    },
  };
}
