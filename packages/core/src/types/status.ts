/** Status literals and their groupings, as in Agent Lightning v0.x `types/core.py` and `store/base.py`. */

export const ROLLOUT_STATUSES = [
  'queuing',
  'preparing',
  'running',
  'failed',
  'succeeded',
  'cancelled',
  'requeuing',
] as const;
export type RolloutStatus = (typeof ROLLOUT_STATUSES)[number];

export const ATTEMPT_STATUSES = [
  'preparing',
  'running',
  'failed',
  'succeeded',
  'unresponsive',
  'timeout',
] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

export const ROLLOUT_MODES = ['train', 'val', 'test'] as const;
export type RolloutMode = (typeof ROLLOUT_MODES)[number];

export const WORKER_STATUSES = ['idle', 'busy', 'unknown'] as const;
export type WorkerStatus = (typeof WORKER_STATUSES)[number];

/** Statuses of a rollout waiting in the queue. */
export const QUEUING_STATUSES: readonly RolloutStatus[] = ['queuing', 'requeuing'];
/** Statuses of a rollout that a worker holds. */
export const RUNNING_STATUSES: readonly RolloutStatus[] = ['preparing', 'running'];
/** Terminal rollout statuses. */
export const FINISHED_STATUSES: readonly RolloutStatus[] = ['failed', 'succeeded', 'cancelled'];

export const isQueuing = (status: RolloutStatus): boolean => QUEUING_STATUSES.includes(status);
export const isRunning = (status: RolloutStatus): boolean => RUNNING_STATUSES.includes(status);
export const isFinished = (status: RolloutStatus): boolean => FINISHED_STATUSES.includes(status);
