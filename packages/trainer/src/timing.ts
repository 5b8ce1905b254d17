import { interruptibleSleep } from '@arclight/core';

/** Resolves when `signal` aborts. */
export function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
}

/**
 * Waits for `promise`; once `signal` has aborted, waits at most `graceSeconds` more. Resolves `true` when the
 * promise settled (its rejection is rethrown), `false` when it was abandoned.
 */
export async function settleWithGrace(
  promise: Promise<unknown>,
  signal: AbortSignal,
  graceSeconds: number,
): Promise<boolean> {
  const cleanup = new AbortController();
  const settled = promise.then(() => true as const);
  const abandoned = aborted(linkedController(signal, cleanup.signal).signal)
    .then(() => interruptibleSleep(cleanup.signal.aborted ? 0 : graceSeconds, cleanup.signal))
    .then(() => false as const);
  try {
    return await Promise.race([settled, abandoned]);
  } finally {
    cleanup.abort();
  }
}

/** An AbortController that also aborts when any of `signals` does. */
export function linkedController(...signals: Array<AbortSignal | undefined>): AbortController {
  const controller = new AbortController();
  for (const signal of signals) {
    if (!signal) continue;
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  }
  return controller;
}
