/** Sleeps `seconds`, returning early (without throwing) when `signal` aborts. */
export function interruptibleSleep(seconds: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, seconds) * 1000);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** `base` ± a uniform jitter, at least 0.01 s (upstream's poll and heartbeat intervals). */
export function jittered(base: number, jitter: number, random: () => number = Math.random): number {
  return Math.max(base + (random() * 2 - 1) * jitter, 0.01);
}

/** Resolves with `promise`'s value, or with `fallback` once `seconds` have passed. */
export async function withTimeout<T, F>(
  promise: Promise<T>,
  seconds: number,
  fallback: F,
): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), seconds * 1000);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
