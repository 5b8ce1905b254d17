/** Wire JSON as a server sends it (snake_case, every field present). */

export function rolloutJson(rolloutId: string, status = 'queuing'): Record<string, unknown> {
  return {
    rollout_id: rolloutId,
    input: { task: rolloutId },
    start_time: 1_700_000_000.5,
    end_time: null,
    mode: 'train',
    resources_id: null,
    status,
    config: {
      timeout_seconds: null,
      unresponsive_seconds: null,
      max_attempts: 1,
      retry_condition: [],
    },
    metadata: {},
  };
}

export function attemptJson(rolloutId: string, attemptId: string): Record<string, unknown> {
  return {
    rollout_id: rolloutId,
    attempt_id: attemptId,
    sequence_id: 1,
    start_time: 1_700_000_001,
    end_time: null,
    status: 'preparing',
    worker_id: 'worker-1',
    last_heartbeat_time: null,
    metadata: null,
  };
}

export function attemptedRolloutJson(
  rolloutId: string,
  attemptId: string,
): Record<string, unknown> {
  return { ...rolloutJson(rolloutId, 'preparing'), attempt: attemptJson(rolloutId, attemptId) };
}

export function page<T>(items: T[]): { items: T[]; limit: number; offset: number; total: number } {
  return { items, limit: -1, offset: 0, total: items.length };
}
