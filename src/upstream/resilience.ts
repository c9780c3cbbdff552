// Retry, per-attempt timeout, per-endpoint circuit breaker and process bulkhead (cockatiel),
// and the translation of their rejections into AppError codes.
import {
  BrokenCircuitError,
  BulkheadRejectedError,
  ConsecutiveBreaker,
  ExponentialBackoff,
  TaskCancelledError,
  TimeoutStrategy,
  bulkhead,
  circuitBreaker,
  handleWhen,
  retry,
  timeout,
  type CircuitBreakerPolicy,
} from 'cockatiel';
import { AppError, isAppError } from '../errors.ts';
import type { UpstreamConfig } from './config.ts';
import { toAppError, UpstreamFailure, type UpstreamSubject } from './classify.ts';

/** Failures that count towards opening a breaker: the platform is refusing or failing, not "no such user". */
const countsForBreaker = (error: Error): boolean =>
  error instanceof UpstreamFailure &&
  (error.outcome === 'blocked' ||
    error.outcome === 'rate_limited' ||
    error.outcome === 'upstream_error' ||
    error.outcome === 'unreachable' ||
    error.outcome === 'timeout');

export function createResilience(config: UpstreamConfig) {
  const breakers = new Map<string, CircuitBreakerPolicy>();
  const requestTimeout = timeout(config.requestTimeoutMs, TimeoutStrategy.Aggressive);
  const retryPolicy = retry(
    handleWhen((error) => {
      if (!(error instanceof UpstreamFailure) || !error.retryable) return false;
      // A Retry-After longer than our backoff budget is handed to the client instead of waited out.
      return !(error.retryAfterSeconds !== undefined && error.retryAfterSeconds * 1000 > config.retryMaxDelayMs);
    }),
    {
      maxAttempts: Math.max(0, config.maxAttempts - 1),
      backoff: new ExponentialBackoff({ initialDelay: config.retryBaseDelayMs, maxDelay: config.retryMaxDelayMs }),
    },
  );
  const processBulkhead = bulkhead(config.maxConcurrent, Math.max(1, Math.ceil(config.maxConcurrent / 2)));

  function breakerFor(endpoint: string): CircuitBreakerPolicy {
    let breaker = breakers.get(endpoint);
    if (!breaker) {
      breaker = circuitBreaker(handleWhen(countsForBreaker), {
        halfOpenAfter: config.breaker.halfOpenAfterMs,
        breaker: new ConsecutiveBreaker(config.breaker.failureThreshold),
      });
      breakers.set(endpoint, breaker);
    }
    return breaker;
  }

  /** Endpoints whose last failure was an unreachable platform: their open breaker says so too. */
  const unreachable = new Set<string>();

  /** One platform request: breaker of its endpoint around a deadline. */
  async function guardRequest<T>(endpoint: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    try {
      const value = await breakerFor(endpoint).execute(async () => {
        try {
          return await requestTimeout.execute((_ctx, signal) => fn(signal));
        } catch (error) {
          if (error instanceof TaskCancelledError) throw new UpstreamFailure({ outcome: 'timeout', reason: 'timeout' });
          throw error;
        }
      });
      unreachable.delete(endpoint);
      return value;
    } catch (error) {
      if (error instanceof UpstreamFailure) {
        if (error.outcome === 'unreachable') unreachable.add(endpoint);
        else unreachable.delete(endpoint);
      }
      if (error instanceof BrokenCircuitError && unreachable.has(endpoint)) {
        throw toAppError(new UpstreamFailure({ outcome: 'unreachable', reason: 'breaker_open' }), 'list', config);
      }
      throw error;
    }
  }

  /** One client call: bulkhead around retries; every rejection leaves as an AppError. */
  async function guardCall<T>(subject: UpstreamSubject, fn: (attempt: number) => Promise<T>): Promise<T> {
    try {
      return await processBulkhead.execute(() => retryPolicy.execute(({ attempt }) => fn(attempt)));
    } catch (error) {
      throw toCallError(error, subject);
    }
  }

  function toCallError(error: unknown, subject: UpstreamSubject): AppError {
    if (isAppError(error)) return error;
    if (error instanceof UpstreamFailure) return toAppError(error, subject, config);
    if (error instanceof BrokenCircuitError) {
      return new AppError('upstream_blocked', 'The platform is failing for this kind of request; try again later.', {
        cause: error,
        retryAfterSeconds: Math.max(1, Math.ceil(config.breaker.halfOpenAfterMs / 1000)),
      });
    }
    if (error instanceof BulkheadRejectedError) {
      return new AppError('upstream_blocked', 'Too many platform requests are in progress; try again shortly.', {
        cause: error,
        retryAfterSeconds: 1,
      });
    }
    if (error instanceof TaskCancelledError) {
      return new AppError('upstream_timeout', 'The platform did not answer in time.', { cause: error });
    }
    return new AppError('upstream_error', 'The platform answered with an error or an unexpected response.', { cause: error });
  }

  return { guardRequest, guardCall, breakerFor };
}
