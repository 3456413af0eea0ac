// Exponential backoff with jitter for the agent's loops: after each failure the ceiling
// doubles up to `maxMs`, and the wait is drawn from the upper half of it, so a fleet of
// runners that lost the server at the same moment does not come back in one wave.

export interface Backoff {
  /** The wait before the next try; at least `atLeastMs` (a server's Retry-After). */
  next(atLeastMs?: number): number;
  reset(): void;
  readonly failures: number;
}

export function createBackoff(baseMs = 1000, maxMs = 60_000, random = Math.random): Backoff {
  let failures = 0;
  return {
    next(atLeastMs = 0) {
      const ceiling = Math.min(maxMs, baseMs * 2 ** failures);
      failures++;
      return Math.max(atLeastMs, Math.round(ceiling / 2 + random() * (ceiling / 2)));
    },
    reset() { failures = 0; },
    get failures() { return failures; },
  };
}

/** Resolves after `ms`, or at once when the signal aborts (shutdown must not wait out a long backoff). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
