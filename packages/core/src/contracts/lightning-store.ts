import type { OtelSpanLike } from '../otel/otel-span-like.js';
import type { FilterLogic, PaginatedResult, SortOrder } from '../types/paginated.js';
import type { NamedResources, ResourcesUpdate } from '../types/resources.js';
import type {
  Attempt,
  AttemptedRollout,
  EnqueueRolloutRequest,
  Rollout,
  RolloutConfig,
  TaskInput,
} from '../types/rollout.js';
import type { Span } from '../types/span.js';
import type { AttemptStatus, RolloutMode, RolloutStatus, WorkerStatus } from '../types/status.js';
import type { Worker } from '../types/worker.js';

/**
 * The store contract (upstream `LightningStore`): what algorithms, runners, tracers and servers program against;
 * `@arclight/store` holds the implementations (memory, SQLite) and the conformance suite.
 *
 * Parameter objects use the wire's snake_case field names. In update methods a key that is absent
 * (or `undefined`) is left unchanged, while `null` explicitly clears the field (upstream's `UNSET` vs `None`).
 */

export interface StartRolloutParams {
  input: TaskInput;
  mode?: RolloutMode | null;
  resources_id?: string | null;
  config?: Partial<RolloutConfig> | null;
  metadata?: Record<string, unknown> | null;
  worker_id?: string | null;
}

export type EnqueueRolloutParams = EnqueueRolloutRequest;

export interface DequeueParams {
  worker_id?: string | null;
}

export interface DequeueManyParams extends DequeueParams {
  limit?: number;
}

export interface StartAttemptParams {
  worker_id?: string | null;
}

export interface PageParams {
  sort_by?: string | null;
  sort_order?: SortOrder;
  /** -1 means no limit. */
  limit?: number;
  offset?: number;
}

export interface QueryRolloutsParams extends PageParams {
  status_in?: RolloutStatus[] | null;
  rollout_id_in?: string[] | null;
  rollout_id_contains?: string | null;
  filter_logic?: FilterLogic;
}

export type QueryAttemptsParams = PageParams;

export interface QueryResourcesParams extends PageParams {
  resources_id?: string | null;
  resources_id_contains?: string | null;
}

export interface QuerySpansParams extends PageParams {
  /** An attempt id, `'latest'` for the latest attempt, or absent/null for all attempts. */
  attempt_id?: string | null;
  trace_id?: string | null;
  trace_id_contains?: string | null;
  span_id?: string | null;
  span_id_contains?: string | null;
  parent_id?: string | null;
  parent_id_contains?: string | null;
  name?: string | null;
  name_contains?: string | null;
  filter_logic?: FilterLogic;
}

export interface QueryWorkersParams extends PageParams {
  status_in?: WorkerStatus[] | null;
  worker_id_contains?: string | null;
  filter_logic?: FilterLogic;
}

export interface WaitForRolloutsParams {
  rollout_ids: string[];
  /** Seconds; absent/null waits without limit, 0 checks once. */
  timeout?: number | null;
}

export interface UpdateRolloutParams {
  input?: TaskInput;
  mode?: RolloutMode | null;
  resources_id?: string | null;
  status?: RolloutStatus;
  config?: Partial<RolloutConfig>;
  metadata?: Record<string, unknown> | null;
}

export interface UpdateAttemptParams {
  status?: AttemptStatus;
  worker_id?: string | null;
  last_heartbeat_time?: number | null;
  metadata?: Record<string, unknown> | null;
}

export interface UpdateWorkerParams {
  heartbeat_stats?: Record<string, unknown> | null;
}

export interface LightningStoreCapabilities {
  thread_safe: boolean;
  async_safe: boolean;
  zero_copy: boolean;
  otlp_traces: boolean;
}

export interface LightningStoreStatistics {
  name: string;
  total_rollouts: number;
  total_attempts: number;
  total_spans: number;
  total_resources: number;
  total_workers: number;
  uptime: number;
  total_span_bytes: number;
  eviction_threshold_bytes: number | null;
  safe_threshold_bytes: number | null;
  memory_capacity_bytes: number | null;
  [extra: string]: unknown;
}

/**
 * The LightningStore: queue, rollouts, attempts, spans, resources and workers, with the semantics of
 * Agent Lightning v0.x (`store/base.py`). Method names are upstream's in camelCase; ids are positional.
 * Unknown ids raise `NotFoundError`, bad arguments `ValidationError`; a failed call changes nothing.
 */
export interface LightningStore {
  readonly capabilities: LightningStoreCapabilities;
  /**
   * True when every call takes effect synchronously as it is made (the in-process memory and SQLite stores):
   * calls started one after another without awaiting apply in call order, so a caller with several calls to
   * make may start them together — with SQLite's group commit they then share one commit. Absent or false
   * (PostgreSQL, HTTP clients): await each call before starting the next when their order matters.
   */
  readonly appliesCallsInOrder?: boolean;
  statistics(): Promise<LightningStoreStatistics>;

  startRollout(params: StartRolloutParams): Promise<AttemptedRollout>;
  enqueueRollout(params: EnqueueRolloutParams): Promise<Rollout>;
  enqueueManyRollouts(rollouts: EnqueueRolloutParams[]): Promise<Rollout[]>;
  dequeueRollout(params?: DequeueParams): Promise<AttemptedRollout | null>;
  dequeueManyRollouts(params?: DequeueManyParams): Promise<AttemptedRollout[]>;
  startAttempt(rolloutId: string, params?: StartAttemptParams): Promise<AttemptedRollout>;

  queryRollouts(params?: QueryRolloutsParams): Promise<PaginatedResult<Rollout | AttemptedRollout>>;
  queryAttempts(rolloutId: string, params?: QueryAttemptsParams): Promise<PaginatedResult<Attempt>>;
  getRolloutById(rolloutId: string): Promise<Rollout | AttemptedRollout | null>;
  getLatestAttempt(rolloutId: string): Promise<Attempt | null>;

  queryResources(params?: QueryResourcesParams): Promise<PaginatedResult<ResourcesUpdate>>;
  getResourcesById(resourcesId: string): Promise<ResourcesUpdate | null>;
  getLatestResources(): Promise<ResourcesUpdate | null>;
  addResources(resources: NamedResources): Promise<ResourcesUpdate>;
  updateResources(resourcesId: string, resources: NamedResources): Promise<ResourcesUpdate>;

  addSpan(span: Span): Promise<Span | null>;
  addManySpans(spans: Span[]): Promise<Span[]>;
  addOtelSpan(
    rolloutId: string,
    attemptId: string,
    span: OtelSpanLike,
    sequenceId?: number | null,
  ): Promise<Span | null>;
  getNextSpanSequenceId(rolloutId: string, attemptId: string): Promise<number>;
  getManySpanSequenceIds(rolloutAttemptIds: Array<[string, string]>): Promise<number[]>;
  querySpans(rolloutId: string, params?: QuerySpansParams): Promise<PaginatedResult<Span>>;

  waitForRollouts(params: WaitForRolloutsParams): Promise<Rollout[]>;
  updateRollout(rolloutId: string, params: UpdateRolloutParams): Promise<Rollout>;
  updateAttempt(
    rolloutId: string,
    attemptId: string,
    params: UpdateAttemptParams,
  ): Promise<Attempt>;

  queryWorkers(params?: QueryWorkersParams): Promise<PaginatedResult<Worker>>;
  getWorkerById(workerId: string): Promise<Worker | null>;
  updateWorker(workerId: string, params?: UpdateWorkerParams): Promise<Worker>;

  close(): Promise<void>;
}
