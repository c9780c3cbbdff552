// What the node knows of its database's health: a breaker around the calls a request cannot do
// without (API key checks), so while the database is unreachable those fail at once with 503
// store_unavailable instead of each waiting on a connection, and one call tries it again now and then.
import { BrokenCircuitError, ConsecutiveBreaker, circuitBreaker, handleWhen } from 'cockatiel';
import { AppError } from '../errors.ts';

export type StoreGuardLogger = {
  warn(details: Record<string, unknown>, message: string): void;
  info(details: Record<string, unknown>, message: string): void;
};

export type StoreGuardOptions = {
  logger: StoreGuardLogger;
  /** After an outage is seen, how long calls are refused before one is let through to try again. */
  retryAfterMs?: number;
  /** Text that must never be logged (the database password). */
  secrets?: string[];
};

export type StoreGuard = {
  /** Runs a call the answer depends on; an unreachable store is AppError store_unavailable. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** True from a connection failure until a call succeeds again. */
  isDown(): boolean;
  /** Outage episodes since start (each logged once, as is each recovery). */
  outages(): number;
};

// SQLSTATE classes 08 (connection), 28 (authorization), 3D000 (no such database), 57P01–57P03
// (shutting down, crashed, starting up).
const CONNECT_SQLSTATE = /^(08|28|3D000|57P0[123])/;
const CONNECT_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** The store could not be reached (as opposed to answering with an error). */
export function isConnectError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECT_SQLSTATE.test(code) || CONNECT_ERRNO.has(code))) return true;
  return /timeout|terminated|connect/i.test(error.message) || error instanceof AggregateError;
}

export function createStoreGuard({ logger, retryAfterMs = 2000, secrets = [] }: StoreGuardOptions): StoreGuard {
  const breaker = circuitBreaker(handleWhen(isConnectError), { halfOpenAfter: retryAfterMs, breaker: new ConsecutiveBreaker(1) });
  let down = false;
  let episodes = 0;
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));

  function refuse(cause: unknown): AppError {
    return new AppError('store_unavailable', 'The key store is not reachable, so the API key cannot be checked; retry shortly.', {
      cause,
      retryAfterSeconds,
    });
  }

  return {
    async run(fn) {
      let value;
      try {
        value = await breaker.execute(fn);
      } catch (error) {
        if (error instanceof BrokenCircuitError) throw refuse(error);
        if (!isConnectError(error)) throw error;
        if (!down) {
          down = true;
          episodes += 1;
          logger.warn({ err: redact(error, secrets) }, 'database unreachable: API keys cannot be checked and are refused with 503 store_unavailable until it returns');
        }
        throw refuse(error);
      }
      if (down) {
        down = false;
        logger.info({}, 'database reachable again: API keys are checked again');
      }
      return value;
    },
    isDown: () => down,
    outages: () => episodes,
  };
}

function redact(error: unknown, secrets: string[]): string {
  let text = error instanceof Error ? error.message || error.name : String(error);
  for (const secret of secrets) if (secret !== '') text = text.replaceAll(secret, '***');
  return text;
}
