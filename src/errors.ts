// The closed catalog of error codes reelay answers with, and the one error class that carries them.
// Codes are stable forever: clients switch on them. Each edge (REST, MCP, OAuth) renders them once.

export const ERROR_CODES = {
  invalid_request: { status: 400, title: 'Invalid request', retryable: false },
  invalid_cursor: { status: 400, title: 'Invalid cursor', retryable: false },
  unauthorized: { status: 401, title: 'Unauthorized', retryable: false },
  forbidden: { status: 403, title: 'Forbidden', retryable: false },
  invalid_link: { status: 403, title: 'Invalid media link', retryable: false },
  link_expired: { status: 403, title: 'Media link expired', retryable: false },
  private_account: { status: 403, title: 'Private account', retryable: false },
  private_content: { status: 403, title: 'Private content', retryable: false },
  geo_blocked: { status: 403, title: 'Not available in this region', retryable: false },
  not_found: { status: 404, title: 'Not found', retryable: false },
  not_live: { status: 404, title: 'Not live', retryable: false },
  no_transcript: { status: 404, title: 'No transcript', retryable: false },
  no_media: { status: 404, title: 'No such media file', retryable: false },
  method_not_allowed: { status: 405, title: 'Method not allowed', retryable: false },
  not_acceptable: { status: 406, title: 'Not acceptable', retryable: false },
  payload_too_large: { status: 413, title: 'Payload too large', retryable: false },
  unsupported_media_type: { status: 415, title: 'Unsupported media type', retryable: false },
  range_not_satisfiable: { status: 416, title: 'Range not satisfiable', retryable: false },
  headers_too_large: { status: 431, title: 'Request header fields too large', retryable: false },
  rate_limited: { status: 429, title: 'Too many requests', retryable: true },
  internal: { status: 500, title: 'Internal error', retryable: false },
  upstream_error: { status: 502, title: 'Upstream error', retryable: true },
  platform_unreachable: { status: 502, title: 'Platform unreachable', retryable: true },
  upstream_blocked: { status: 503, title: 'Upstream blocked', retryable: true },
  unavailable: { status: 503, title: 'Service unavailable', retryable: true },
  store_unavailable: { status: 503, title: 'Store unavailable', retryable: true },
  upstream_timeout: { status: 504, title: 'Upstream timeout', retryable: true },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export type AppErrorOptions = {
  cause?: unknown;
  /** Extra machine-readable members rendered next to `code` (e.g. `params`, `languages`). */
  details?: Record<string, unknown>;
  /** Seconds a client should wait before retrying (Retry-After). */
  retryAfterSeconds?: number;
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.retryable = ERROR_CODES[code].retryable;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** What a caller whose request deadline passed is told, on every edge (REST 504, MCP tool error). */
export const DEADLINE_MESSAGE = 'The request deadline passed before the platform answered.';

/** The error a request gets when its deadline passes; its work is cancelled with it as the reason. */
export function deadlineError(deadlineMs: number): AppError {
  return new AppError('upstream_timeout', DEADLINE_MESSAGE, { details: { deadlineMs }, retryAfterSeconds: 5 });
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** Any thrown value as an AppError; unknown errors become `internal` with a generic public message. */
export function toAppError(value: unknown): AppError {
  if (isAppError(value)) return value;
  return new AppError('internal', 'An internal error occurred.', { cause: value });
}
