// One request deadline for every transport (REST and MCP): the work gets a signal that aborts when
// the deadline passes or the client goes away, and the caller is answered at the deadline even if
// some work is slow to stop. Once the answer is settled the signal aborts, so nothing keeps working.
import { untilAborted } from '../abort.ts';
import { AppError, deadlineError } from '../errors.ts';

/**
 * The reason work is stopped once its request is answered; one shared instance, since building an
 * Error (and its stack) on every request is measurable on the cached path and nobody reads its stack.
 */
const ANSWERED = new AppError('upstream_timeout', 'The request was already answered.');

export async function runWithDeadline<T>(
  deadlineMs: number,
  work: (signal: AbortSignal) => Promise<T>,
  clientGone?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(deadlineError(deadlineMs)), deadlineMs);
  const onGone = () => controller.abort(new AppError('upstream_timeout', 'The client closed the request.'));
  if (clientGone?.aborted) onGone();
  else clientGone?.addEventListener('abort', onGone, { once: true });
  try {
    return await untilAborted(work(controller.signal), controller.signal, (signal) => signal.reason);
  } finally {
    clearTimeout(timer);
    clientGone?.removeEventListener('abort', onGone);
    // Answered: work this request started and nobody else shares (e.g. the other half of a failed
    // pair of loads) stops now.
    if (!controller.signal.aborted) controller.abort(ANSWERED);
  }
}

/** A signal that aborts when the HTTP response is closed before it was completely written. */
export function closedEarlySignal(response: { once(event: 'close', listener: () => void): unknown; readonly writableFinished: boolean }): AbortSignal {
  const controller = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}
