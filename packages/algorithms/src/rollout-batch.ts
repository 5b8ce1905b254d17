import { interruptibleSleep, type LightningStore, type Rollout, type Span } from '@arclight/core';

/** Thrown inside algorithms when their stop signal aborts; `run()` catches it and returns. */
export class AlgorithmStopped extends Error {
  constructor() {
    super('the algorithm was stopped');
    this.name = 'AlgorithmStopped';
  }
}

export interface WaitOptions {
  /** Seconds to wait in all (default: no limit). */
  timeout?: number;
  /** Longest single `waitForRollouts` call, in seconds (default 1). */
  pollInterval?: number;
  /** Stop waiting when it aborts (then `AlgorithmStopped` is thrown). */
  signal?: AbortSignal;
}

/**
 * Waits until every rollout of `ids` has finished (succeeded, failed or cancelled), `timeout` seconds have
 * passed, or `signal` aborts (→ `AlgorithmStopped`). Returns the finished rollouts in the order of `ids` —
 * upstream's loop of `wait_for_rollouts` polls, with the store's own waiting instead of sleeps.
 */
export async function waitForFinished(
  store: LightningStore,
  ids: readonly string[],
  options: WaitOptions = {},
): Promise<Rollout[]> {
  const deadline = Date.now() + (options.timeout ?? Number.POSITIVE_INFINITY) * 1000;
  const pollInterval = options.pollInterval ?? 1;
  const finished = new Map<string, Rollout>();
  let pending = [...ids];
  while (pending.length > 0) {
    if (options.signal?.aborted) throw new AlgorithmStopped();
    const left = (deadline - Date.now()) / 1000;
    if (left <= 0) break;
    const started = Date.now();
    const done = await store.waitForRollouts({
      rollout_ids: pending,
      timeout: Math.min(pollInterval, left),
    });
    for (const rollout of done) finished.set(rollout.rollout_id, rollout);
    pending = pending.filter((id) => !finished.has(id));
    // A store that returns early without news must not turn this into a busy loop.
    if (done.length === 0 && Date.now() - started < 10)
      await interruptibleSleep(0.05, options.signal);
  }
  if (options.signal?.aborted) throw new AlgorithmStopped();
  return ids.flatMap((id) => finished.get(id) ?? []);
}

/** The spans of a rollout's latest attempt, in sequence order. */
export async function latestAttemptSpans(
  store: LightningStore,
  rolloutId: string,
): Promise<Span[]> {
  const spans = (await store.querySpans(rolloutId, { attempt_id: 'latest' })).items;
  return [...spans].sort((a, b) => a.sequence_id - b.sequence_id);
}
