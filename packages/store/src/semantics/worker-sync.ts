import type { Attempt, Worker } from '@arclight/core';

export const newWorker = (workerId: string): Worker => ({
  worker_id: workerId,
  status: 'unknown',
  heartbeat_stats: null,
  last_heartbeat_time: null,
  last_dequeue_time: null,
  last_busy_time: null,
  last_idle_time: null,
  current_rollout_id: null,
  current_attempt_id: null,
});

/**
 * Applies upstream's worker-sync rules for an attempt the worker holds: succeeded/failed → idle,
 * timeout/unresponsive → unknown (both stamp `last_idle_time` and clear the current ids), anything else →
 * busy on this attempt. `dequeued` also stamps `last_dequeue_time`.
 */
export function syncWorkerWithAttempt(
  worker: Worker,
  attempt: Attempt,
  now: number,
  dequeued: boolean,
): Worker {
  const next: Worker = { ...worker };
  if (dequeued) next.last_dequeue_time = now;
  if (attempt.status === 'succeeded' || attempt.status === 'failed') {
    Object.assign(next, {
      status: 'idle',
      last_idle_time: now,
      current_rollout_id: null,
      current_attempt_id: null,
    });
  } else if (attempt.status === 'timeout' || attempt.status === 'unresponsive') {
    Object.assign(next, {
      status: 'unknown',
      last_idle_time: now,
      current_rollout_id: null,
      current_attempt_id: null,
    });
  } else {
    Object.assign(next, {
      status: 'busy',
      last_busy_time: now,
      current_rollout_id: attempt.rollout_id,
      current_attempt_id: attempt.attempt_id,
    });
  }
  return next;
}

/** A dequeue that found nothing: the worker becomes idle (stamping `last_idle_time` only on the change). */
export function markWorkerIdleAfterEmptyDequeue(worker: Worker, now: number): Worker {
  if (worker.status === 'idle') return { ...worker, last_dequeue_time: now };
  return { ...worker, status: 'idle', last_idle_time: now, last_dequeue_time: now };
}
