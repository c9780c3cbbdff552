// Renders an AppError as an RFC 9457 problem document with reelay's stable `code` and the request id.
import type { z } from 'zod';
import { ERROR_CODES, type AppError } from '../errors.ts';
import type { ProblemSchema } from '../error-schemas.ts';

export type Problem = z.infer<typeof ProblemSchema>;

/** Problem `type` URIs point at the error table of the service's own /docs page. */
export function problemType(publicUrl: string, code: string): string {
  return `${publicUrl}/docs#error-${code}`;
}

export function toProblem(error: AppError, instance: string, requestId: string, publicUrl: string): Problem {
  const entry = ERROR_CODES[error.code];
  return {
    type: problemType(publicUrl, error.code),
    title: entry.title,
    status: entry.status,
    detail: error.message,
    instance,
    code: error.code,
    requestId,
    ...((error.details ?? {}) as Partial<Problem>),
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
  };
}
