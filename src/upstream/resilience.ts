// Retry, per-attempt timeout, per-endpoint circuit breaker and bulkheads (cockatiel), the caller's
// cancellation signal carried through all of them, and the translation of their rejections into AppError codes.
import {
  BrokenCircuitError,
  BulkheadRejectedError,
  CircuitState,
  ConsecutiveBreaker,
  ExponentialBackoff,
  TaskCancelledError,
  TimeoutStrategy,
  bulkhead,
  circuitBreaker,
  handleWhen,
  retry,
  timeout,
  type BulkheadPolicy,
  type CircuitBreakerPolicy,
} from 'cockatiel';
import { untilAborted } from '../abort.ts';
import { AppError, isAppError } from '../errors.ts';
import type { UpstreamConfig } from './config.ts';
import { isInputRefusal, MALFORMED_JSON, toAppError, UpstreamFailure, type UpstreamSubject } from './classify.ts';

/**
 * Failures that count towards opening a breaker: the platform itself failing or refusing (5xx,
 * resets, timeouts, blocks, 429). Never answers about the content ("no such user"), a 4xx the
 * caller's input provoked, or a request the caller abandoned.
 */
export function countsForBreaker(error: Error): boolean {
  if (!(error instanceof UpstreamFailure) || isInputRefusal(error)) return false;
  return (
    error.outcome === 'upstream_error' ||
    error.outcome === 'unreachable' ||
    error.outcome === 'blocked' ||
    error.outcome === 'rate_limited' ||
    error.outcome === 'timeout'
  );
}

const cancelled = () => new UpstreamFailure({ outcome: 'cancelled', reason: 'cancelled' });

/** A breaker's state as a number for metrics: 0 closed, 1 open (also when isolated by hand), 2 half-open. */
export function breakerStateValue(state: CircuitState): 0 | 1 | 2 {
  if (state === CircuitState.Closed) return 0;
  if (state === CircuitState.HalfOpen) return 2;
  return 1;
}

export type ResilienceLogger = { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };

export function createResilience(config: UpstreamConfig, logger?: ResilienceLogger) {
  const breakers = new Map<string, CircuitBreakerPolicy>();
  const bulkheads = new Map<string, BulkheadPolicy>();
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
  // Every platform request holds a process slot; one endpoint may hold at most half of them (and
  // queue as many), so a slow or failing endpoint cannot starve the others.
  const processBulkhead = bulkhead(config.maxConcurrent, config.maxConcurrent);
  const perEndpoint = Math.max(1, Math.ceil(config.maxConcurrent / 2));

  function breakerFor(endpoint: string): CircuitBreakerPolicy {
    let breaker = breakers.get(endpoint);
    if (!breaker) {
      breaker = circuitBreaker(handleWhen(countsForBreaker), {
        halfOpenAfter: config.breaker.halfOpenAfterMs,
        breaker: new ConsecutiveBreaker(config.breaker.failureThreshold),
      });
      breakers.set(endpoint, breaker);
      // Logged in the context of the request whose failure or success moved it (its id on the line).
      breaker.onBreak(() => logger?.warn({ endpoint, forMs: config.breaker.halfOpenAfterMs }, 'circuit breaker opened: this endpoint is refused until it is tried again'));
      breaker.onReset(() => logger?.info?.({ endpoint }, 'circuit breaker closed: the endpoint answers again'));
    }
    return breaker;
  }

  /** Every endpoint's breaker state (endpoints never called have none yet). */
  function breakerStates(): Array<{ endpoint: string; state: 0 | 1 | 2 }> {
    return [...breakers].map(([endpoint, breaker]) => ({ endpoint, state: breakerStateValue(breaker.state) }));
  }

  /** Endpoints whose last failure was an unreachable platform: their open breaker says so too. */
  const unreachable = new Set<string>();

  function bulkheadFor(endpoint: string): BulkheadPolicy {
    let policy = bulkheads.get(endpoint);
    if (!policy) bulkheads.set(endpoint, (policy = bulkhead(perEndpoint, perEndpoint)));
    return policy;
  }

  /**
   * One platform request: breaker of its endpoint, the endpoint's and the process's bulkheads, then
   * a deadline. `fn` gets a signal that aborts at that deadline or when `callerSignal` aborts.
   */
  async function guardRequest<T>(endpoint: string, fn: (signal: AbortSignal) => Promise<T>, callerSignal?: AbortSignal): Promise<T> {
    try {
      const value = await breakerFor(endpoint).execute(async () => {
        try {
          return await bulkheadFor(endpoint).execute(
            ({ signal }) => processBulkhead.execute(({ signal: slot }) => requestTimeout.execute((_ctx, s) => fn(s), slot), signal),
            callerSignal,
          );
        } catch (error) {
          if (callerSignal?.aborted) throw cancelled();
          if (error instanceof TaskCancelledError) throw new UpstreamFailure({ outcome: 'timeout', reason: 'timeout' });
          throw error;
        }
      }, callerSignal);
      unreachable.delete(endpoint);
      return value;
    } catch (error) {
      if (error instanceof UpstreamFailure) {
        if (error.outcome === 'unreachable') unreachable.add(endpoint);
        else if (error.outcome !== 'cancelled') unreachable.delete(endpoint);
      }
      // An open breaker whose endpoint last failed to connect says so, with the same hint.
      if (error instanceof BrokenCircuitError && unreachable.has(endpoint)) {
        throw toAppError(new UpstreamFailure({ outcome: 'unreachable', reason: 'breaker_open' }), 'list', config);
      }
      throw error;
    }
  }

  /**
   * One client call: retries; every rejection leaves as an AppError. A body that is not JSON is
   * retried once per call (a truncated answer passes; a platform that changed its format does not).
   * When `callerSignal` aborts the call rejects at once with its reason and its requests are aborted.
   */
  async function guardCall<T>(
    subject: UpstreamSubject,
    fn: (attempt: number, signal: AbortSignal) => Promise<T>,
    callerSignal?: AbortSignal,
  ): Promise<T> {
    let malformed = 0;
    const attempt = async ({ attempt, signal }: { attempt: number; signal: AbortSignal }) => {
      try {
        return await fn(attempt, signal);
      } catch (error) {
        if (error instanceof UpstreamFailure && error.reason === MALFORMED_JSON && (malformed += 1) > 1) {
          throw new UpstreamFailure({ outcome: 'upstream_error', reason: `${MALFORMED_JSON}_again` });
        }
        throw error;
      }
    };
    try {
      return await untilAborted(retryPolicy.execute(attempt, callerSignal), callerSignal, (s) => s.reason);
    } catch (error) {
      if (callerSignal?.aborted) throw isAppError(callerSignal.reason) ? callerSignal.reason : toCallError(cancelled(), subject);
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

  return { guardRequest, guardCall, breakerFor, breakerStates };
}
