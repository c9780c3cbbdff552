// Small helpers for cancelling work with AbortSignal: wait for work unless the signal aborts first,
// and one signal that aborts only when every interested caller has given up.

/**
 * Settles with `work`, or rejects with `reasonOf(signal)` as soon as `signal` aborts even if `work`
 * ignores it. `work` is already running, so its own rejection is always observed (never unhandled).
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  reasonOf: (signal: AbortSignal) => unknown = () => new DOMException('aborted', 'AbortError'),
): Promise<T> {
  work.catch(() => undefined);
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.reject(reasonOf(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reasonOf(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * A signal shared by the callers of one piece of work: it aborts once every caller that joined has
 * aborted. A caller without a signal (background work) keeps it alive for good.
 */
export function createSharedSignal(): { signal: AbortSignal; join(signal: AbortSignal | undefined): void } {
  const controller = new AbortController();
  let waiting = 0;
  let pinned = false;
  return {
    signal: controller.signal,
    join(signal) {
      if (controller.signal.aborted) return;
      if (signal === undefined) {
        pinned = true;
        return;
      }
      waiting += 1;
      const leave = () => {
        waiting -= 1;
        if (waiting === 0 && !pinned) controller.abort(signal.reason);
      };
      if (signal.aborted) leave();
      else signal.addEventListener('abort', leave, { once: true });
    },
  };
}
