import type { Attempt, AttemptStatus, RolloutConfig } from '@arclight/core';

/**
 * The health verdict for a running rollout's latest attempt at time `now` (upstream `scan_unhealthy_rollouts`):
 * `timeout` when the attempt has run longer than `timeout_seconds` (from the attempt's start), else
 * `unresponsive` when no heartbeat arrived for `unresponsive_seconds` (from the last heartbeat, or from the
 * attempt's start if none), else null.
 */
export function unhealthyStatus(
  attempt: Attempt,
  config: RolloutConfig,
  now: number,
): AttemptStatus | null {
  if (config.timeout_seconds != null && now - attempt.start_time > config.timeout_seconds) {
    return 'timeout';
  }
  if (config.unresponsive_seconds != null) {
    const since = attempt.last_heartbeat_time ?? attempt.start_time;
    if (now - since > config.unresponsive_seconds) return 'unresponsive';
  }
  return null;
}
