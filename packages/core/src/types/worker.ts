import type { WorkerStatus } from './status.js';

export interface Worker {
  worker_id: string;
  status: WorkerStatus;
  heartbeat_stats: Record<string, unknown> | null;
  last_heartbeat_time: number | null;
  last_dequeue_time: number | null;
  last_busy_time: number | null;
  last_idle_time: number | null;
  current_rollout_id: string | null;
  current_attempt_id: string | null;
}
