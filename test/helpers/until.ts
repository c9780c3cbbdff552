// Waiting on a condition in the suites that run whole nodes: poll, never sleep-and-assert.

/**
 * Polls `check` until it answers something other than undefined; bounded in time and in rounds
 * (90 s by default: generous for a loaded 2-core machine).
 * On the deadline it fails saying what was awaited (`what`, a function to show the last state)
 * and the last error `check` threw.
 */
export async function until<T>(
  what: string | (() => string),
  check: () => Promise<T | undefined> | T | undefined,
  deadlineMs = 90_000,
  pollMs = 200,
): Promise<T> {
  const end = Date.now() + deadlineMs;
  let last: unknown;
  for (let i = 0; Date.now() < end && i < deadlineMs / pollMs; i++) {
    try {
      const found = await check();
      if (found !== undefined) return found;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  const said = typeof what === 'string' ? what : what();
  throw new Error(`not within ${deadlineMs} ms: ${said}${last ? ` (last error: ${(last as Error).message})` : ''}`);
}
