import type { AttemptStatus, RolloutMode, RolloutStatus } from './status.js';

/** Any JSON-serializable task input. */
export type TaskInput = unknown;

export interface RolloutConfig {
  timeout_seconds: number | null;
  unresponsive_seconds: number | null;
  /** Includes the first attempt; at least 1. */
  max_attempts: number;
  retry_condition: AttemptStatus[];
}

export interface Rollout {
  rollout_id: string;
  input: TaskInput;
  start_time: number;
  end_time: number | null;
  mode: RolloutMode | null;
  resources_id: string | null;
  status: RolloutStatus;
  config: RolloutConfig;
  metadata: Record<string, unknown> | null;
}

export interface Attempt {
  rollout_id: string;
  attempt_id: string;
  /** 1-based position of the attempt within its rollout. */
  sequence_id: number;
  start_time: number;
  end_time: number | null;
  status: AttemptStatus;
  worker_id: string | null;
  /** Last time the worker reported progress (a span). */
  last_heartbeat_time: number | null;
  metadata: Record<string, unknown> | null;
}

/** A rollout with its latest attempt attached (on the wire: a Rollout plus an `attempt` key). */
export interface AttemptedRollout extends Rollout {
  attempt: Attempt;
}

export const isAttemptedRollout = (rollout: Rollout): rollout is AttemptedRollout =>
  'attempt' in rollout && (rollout as AttemptedRollout).attempt != null;

export interface EnqueueRolloutRequest {
  input: TaskInput;
  mode?: RolloutMode | null;
  resources_id?: string | null;
  config?: Partial<RolloutConfig> | null;
  metadata?: Record<string, unknown> | null;
}

/** An EnqueueRolloutRequest after validation: every optional field present, `config` complete or null. */
export interface NormalizedEnqueueRolloutRequest extends EnqueueRolloutRequest {
  mode: RolloutMode | null;
  resources_id: string | null;
  config: RolloutConfig | null;
  metadata: Record<string, unknown> | null;
}

export const defaultRolloutConfig = (): RolloutConfig => ({
  timeout_seconds: null,
  unresponsive_seconds: null,
  max_attempts: 1,
  retry_condition: [],
});
