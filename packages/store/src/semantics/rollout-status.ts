import type { Attempt, RolloutConfig, RolloutStatus } from '@arclight/core';

/**
 * The rollout status implied by its latest attempt (upstream `rollout_status_from_attempt`):
 * preparing/running/succeeded carry over; failed/timeout/unresponsive become `requeuing` when the status is
 * in `retry_condition` and attempts remain, else `failed`.
 */
export function rolloutStatusFromAttempt(attempt: Attempt, config: RolloutConfig): RolloutStatus {
  switch (attempt.status) {
    case 'preparing':
    case 'running':
    case 'succeeded':
      return attempt.status;
    case 'failed':
    case 'timeout':
    case 'unresponsive':
      return config.retry_condition.includes(attempt.status) &&
        attempt.sequence_id < config.max_attempts
        ? 'requeuing'
        : 'failed';
  }
}
