import {
  type Attempt,
  type AttemptedRollout,
  type FilterLogic,
  type NamedResources,
  type OtelSpanLike,
  type ResourcesUpdate,
  type Rollout,
  type RolloutStatus,
  SCALAR_MODEL_FIELDS,
  type SortOrder,
  type Span,
  type Worker,
  type WorkerStatus,
} from '@arclight/core';
import type { EnqueueRolloutParams, StartRolloutParams } from './lightning-store.js';

/**
 * The synchronous storage seam under `BackendLightningStore` (memory, SQLite). A backend stores and finds records; all store semantics
 * (status machines, watchdog, worker sync, validation) live above it, once, for every backend.
 *
 * Every method is synchronous. `transaction(fn)` runs `fn` atomically: either every write made inside it
 * is kept, or (when `fn` throws) none is. Records passed in are owned by the backend afterwards (the caller
 * never mutates them again) and records returned are the caller's to mutate (backends must not hand out
 * their internal objects if they keep them).
 *
 * Query parameters arrive validated: `sort_by` is one of the sortable fields listed per query,
 * `limit` is -1 or positive, `offset` ≥ 0.
 */
export interface StoreBackend {
  readonly name: string;

  transaction<T>(fn: () => T): T;
  /** Runs the reads in `fn` against one consistent view without taking a write lock; `fn` must not write. */
  snapshot<T>(fn: () => T): T;
  /**
   * Group commit (optional): the transactions of one event-loop turn commit together at its end (SQLite keeps
   * the group open for a few more turns while writes keep joining it); this is the promise of that commit while
   * one is pending (it rejects, and nothing of the group is kept, if the commit fails). The store acknowledges a
   * call only after it settles.
   */
  pendingCommit?(): Promise<void> | undefined;
  close(): void;

  // ---- rollouts (primary key rollout_id) ----
  insertRollout(rollout: Rollout): void;
  /** Replaces the stored rollout with the same id. */
  putRollout(rollout: Rollout): void;
  getRollout(rolloutId: string): Rollout | undefined;
  queryRollouts(query: RolloutQuery): Page<Rollout>;
  /** Every rollout whose status is in `statuses` (for the watchdog). */
  rolloutsWithStatus(statuses: readonly RolloutStatus[]): Rollout[];

  // ---- queue (FIFO of rollout ids) ----
  pushQueue(rolloutIds: string[]): void;
  /** Removes and returns the head of the queue, or undefined when empty. */
  popQueue(): string | undefined;
  queueSize(): number;
  /** Whether the rollout id is currently in the queue (at any position). */
  queueHas(rolloutId: string): boolean;

  // ---- attempts (primary key rollout_id + attempt_id) ----
  insertAttempt(attempt: Attempt): void;
  putAttempt(attempt: Attempt): void;
  getAttempt(rolloutId: string, attemptId: string): Attempt | undefined;
  /** The attempt with the highest sequence_id. */
  getLatestAttempt(rolloutId: string): Attempt | undefined;
  /** The id of `getLatestAttempt`'s attempt, without reading the whole record. */
  latestAttemptId(rolloutId: string): string | undefined;
  /** Latest attempt of each of the given rollouts (rollouts without attempts are absent). */
  latestAttempts(rolloutIds: string[]): Map<string, Attempt>;
  countAttempts(rolloutId: string): number;
  queryAttempts(rolloutId: string, query: PageQuery): Page<Attempt>;

  // ---- spans (primary key rollout_id + attempt_id + span_id) ----
  /** Inserts the spans in order; returns one flag per span, false where the primary key already existed. */
  insertSpans(spans: Span[]): boolean[];
  querySpans(query: SpanQuery): Page<Span>;
  /** `querySpans` with each span as the JSON text it is stored as (optional: backends that keep spans as JSON). */
  querySpanTexts?(query: SpanQuery): Page<string>;

  // ---- span sequence counter (per rollout) ----
  /** Reserves `count` consecutive ids and returns the first; the first id ever handed out is 1. */
  allocateSequenceIds(rolloutId: string, count: number): number;
  /** Makes sure the next allocated id is greater than `sequenceId`. */
  raiseSequenceId(rolloutId: string, sequenceId: number): void;

  // ---- resources (primary key resources_id) ----
  putResources(update: ResourcesUpdate): void;
  getResources(resourcesId: string): ResourcesUpdate | undefined;
  /** The update with the greatest update_time (ties: the one written last). */
  getLatestResources(): ResourcesUpdate | undefined;
  queryResources(query: ResourcesQuery): Page<ResourcesUpdate>;

  // ---- workers (primary key worker_id) ----
  putWorker(worker: Worker): void;
  getWorker(workerId: string): Worker | undefined;
  queryWorkers(query: WorkerQuery): Page<Worker>;

  counts(): BackendCounts;

  /** A backend that caps its memory reports the cap here (statistics' `memory_capacity_bytes` & co). */
  capacity?(): BackendCapacity | undefined;
}

export interface BackendCapacity {
  maxSpanBytes: number;
  maxSpans: number;
  /** Eviction frees down to this fraction of the cap. */
  safeFraction: number;
  evictedSpans: number;
  evictedRollouts: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * Sorting follows upstream's in-memory collection: a stable sort (ties keep insertion order, also when
 * descending); a null `*_time` value sorts as +infinity, any other null as "" (strings) or 0 (numbers).
 */
export interface PageQuery {
  /** Field to sort by; null → insertion order. */
  sort_by: string | null;
  sort_order: SortOrder;
  limit: number;
  offset: number;
}

/**
 * Filters of one query. Conditions that are null/undefined are ignored; the remaining ones are combined
 * with `filter_logic`. With no remaining conditions everything matches.
 * `_in` lists match membership (an empty list matches nothing), `_contains` is substring.
 */
export interface RolloutQuery extends PageQuery {
  status_in: RolloutStatus[] | null;
  rollout_id_in: string[] | null;
  rollout_id_contains: string | null;
  filter_logic: FilterLogic;
}

export interface SpanQuery extends PageQuery {
  /** Always applied (AND), whatever filter_logic says. */
  rollout_id: string;
  /** Always applied (AND) when not null. */
  attempt_id: string | null;
  trace_id: string | null;
  trace_id_contains: string | null;
  span_id: string | null;
  span_id_contains: string | null;
  parent_id: string | null;
  parent_id_contains: string | null;
  name: string | null;
  name_contains: string | null;
  filter_logic: FilterLogic;
}

export interface ResourcesQuery extends PageQuery {
  resources_id: string | null;
  resources_id_contains: string | null;
}

export interface WorkerQuery extends PageQuery {
  status_in: WorkerStatus[] | null;
  worker_id_contains: string | null;
  filter_logic: FilterLogic;
}

export interface BackendCounts {
  rollouts: number;
  attempts: number;
  spans: number;
  resources: number;
  workers: number;
  /** Approximate bytes of stored span data. */
  span_bytes: number;
}

/** Fields each query may be sorted by: the scalar fields of the model, read from core's schemas. */
export const SORTABLE_FIELDS = {
  rollouts: SCALAR_MODEL_FIELDS.Rollout,
  attempts: SCALAR_MODEL_FIELDS.Attempt,
  spans: SCALAR_MODEL_FIELDS.Span,
  resources: SCALAR_MODEL_FIELDS.ResourcesUpdate,
  workers: SCALAR_MODEL_FIELDS.Worker,
} as const;

/** A value, or (for stores over asynchronous storage such as PostgreSQL) a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/**
 * The storage-specific body of each store call, run by `BaseLightningStore` inside one transaction (writes)
 * or one consistent snapshot (reads) after it has validated the arguments. Synchronous storage (memory,
 * SQLite) returns plain values, so its calls take no extra await; asynchronous storage returns promises.
 * Parameters arrive validated; `finished` collects the rollouts that reached a terminal status in the
 * current transaction, so that waiters can be woken after it commits.
 */
export interface StoreSteps {
  readonly finished: string[];
  /** Times out or marks unresponsive the latest attempts of running rollouts (upstream's watchdog scan). */
  scanUnhealthyRollouts(now: number): Awaitable<void>;
  /** A new `preparing` rollout with its first attempt (the worker, when given, is synced). */
  startRollout(params: StartRolloutParams, workerId: string | null): Awaitable<AttemptedRollout>;
  /** New `queuing` rollouts, in order, appended to the queue. */
  enqueueRollouts(requests: EnqueueRolloutParams[]): Awaitable<Rollout[]>;
  /** Up to `limit` queued rollouts, each with a new attempt; an empty dequeue marks the worker idle. */
  dequeueRollouts(workerId: string | null, limit: number): Awaitable<AttemptedRollout[]>;
  startAttempt(rolloutId: string, workerId: string | null): Awaitable<AttemptedRollout>;
  /** Rollouts with their latest attempts. */
  queryRollouts(query: RolloutQuery): Awaitable<Page<Rollout | AttemptedRollout>>;
  getRollout(rolloutId: string): Awaitable<Rollout | AttemptedRollout | null>;
  updateRollout(rolloutId: string, changes: Partial<Rollout>): Awaitable<Rollout>;
  /** Moves finished rollouts into `finished` and returns the ids still pending (unknown ids are dropped). */
  collectFinished(ids: string[], finished: Map<string, Rollout>): Awaitable<string[]>;
  queryAttempts(rolloutId: string, query: PageQuery): Awaitable<Page<Attempt>>;
  getLatestAttempt(rolloutId: string): Awaitable<Attempt | undefined>;
  /** `attemptId` may be `latest`. */
  updateAttempt(
    rolloutId: string,
    attemptId: string,
    changes: Partial<Attempt>,
  ): Awaitable<Attempt>;
  /** A new resources update, or (with `resourcesId`) a replacement of that one. */
  putResources(resources: NamedResources, resourcesId?: string): Awaitable<ResourcesUpdate>;
  getResources(resourcesId: string): Awaitable<ResourcesUpdate | undefined>;
  getLatestResources(): Awaitable<ResourcesUpdate | undefined>;
  queryResources(query: ResourcesQuery): Awaitable<Page<ResourcesUpdate>>;
  /** Inserts spans (rollouts and attempts must exist) as heartbeats of their attempts; returns the new ones. */
  insertSpans(spans: Span[]): Awaitable<Span[]>;
  addOtelSpan(
    rolloutId: string,
    attemptId: string,
    span: OtelSpanLike,
    sequenceId: number | null | undefined,
  ): Awaitable<Span | null>;
  /** Reserves the rollout's next span sequence id. */
  allocateSequenceId(rolloutId: string): Awaitable<number>;
  /** Reserves `count` consecutive ids per rollout; returns the first of each. */
  allocateSequenceIds(counts: Map<string, number>): Awaitable<Map<string, number>>;
  /** `query.attempt_id` is never `latest` here. */
  querySpans(query: SpanQuery): Awaitable<Page<Span>>;
  queryWorkers(query: WorkerQuery): Awaitable<Page<Worker>>;
  getWorker(workerId: string): Awaitable<Worker | undefined>;
  updateWorker(
    workerId: string,
    stats: Record<string, unknown> | null | undefined,
  ): Awaitable<Worker>;
}
