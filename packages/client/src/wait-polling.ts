import type { Rollout } from '@arclight/core';

/** Upstream's Python client refuses `wait_for_rollouts` timeouts above this (seconds). */
export const MAX_SERVER_WAIT_SECONDS = 0.1;

export interface WaitPoller {
  /** One `POST /v1/agl/waits/rollouts` with a server-side timeout of at most 0.1 s. */
  waitOnce(rolloutIds: string[], timeout: number): Promise<Rollout[]>;
  /** The subset of ids the server knows (unknown ids are dropped from a wait, as upstream). */
  knownIds(rolloutIds: string[]): Promise<Set<string>>;
}

/**
 * `waitForRollouts` over HTTP without blocking a server request for long: up to 0.1 s is one server-side
 * wait; longer (or unlimited) waits are a loop of 0.1 s server-side waits until every known rollout is
 * finished or the deadline passes. The answer is the last poll's finished subset, in input order.
 */
export async function pollForRollouts(
  poller: WaitPoller,
  rolloutIds: string[],
  timeout: number | null | undefined,
): Promise<Rollout[]> {
  if (timeout != null && timeout <= MAX_SERVER_WAIT_SECONDS) {
    return poller.waitOnce(rolloutIds, Math.max(timeout, 0));
  }
  const deadline = timeout == null ? Number.POSITIVE_INFINITY : Date.now() + timeout * 1000;
  let pending = [...new Set(rolloutIds)];
  let checkedKnown = false;
  for (;;) {
    const remaining = (deadline - Date.now()) / 1000;
    const slice = Math.max(0, Math.min(MAX_SERVER_WAIT_SECONDS, remaining));
    const started = Date.now();
    const finished = await poller.waitOnce(rolloutIds, slice);
    // A server that answers before its timeout must not turn this loop into a busy loop.
    const early = slice * 1000 - (Date.now() - started);
    const done = new Set(finished.map((rollout) => rollout.rollout_id));
    pending = pending.filter((id) => !done.has(id));
    if (pending.length > 0 && !checkedKnown) {
      checkedKnown = true;
      const known = await poller.knownIds(pending);
      pending = pending.filter((id) => known.has(id));
    }
    if (pending.length === 0 || remaining <= 0) return finished;
    if (early > 0) await new Promise((resolve) => setTimeout(resolve, early));
  }
}
