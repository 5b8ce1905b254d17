import {
  type Attempt,
  type AttemptedRollout,
  type NamedResources,
  type OtelSpanLike,
  type PaginatedResult,
  parseNamedResources,
  type ResourcesUpdate,
  type Rollout,
  type Span,
  StoreClosedError,
  type Worker,
} from '@arclight/core';
import type {
  Awaitable,
  BackendCapacity,
  BackendCounts,
  Page,
  PageQuery,
  SpanQuery,
  StoreSteps,
} from './backend.js';
import { attemptChanges, rolloutChanges } from './changes.js';
import type {
  DequeueManyParams,
  DequeueParams,
  EnqueueRolloutParams,
  LightningStore,
  LightningStoreCapabilities,
  LightningStoreStatistics,
  QueryAttemptsParams,
  QueryResourcesParams,
  QueryRolloutsParams,
  QuerySpansParams,
  QueryWorkersParams,
  StartAttemptParams,
  StartRolloutParams,
  UpdateAttemptParams,
  UpdateRolloutParams,
  UpdateWorkerParams,
  WaitForRolloutsParams,
} from './lightning-store.js';
import * as p from './params.js';
import { attemptQuery, resourcesQuery, rolloutQuery, spanQuery, workerQuery } from './queries.js';
import {
  assignSequenceIds,
  checkSequenceId,
  checkSpans,
  dequeueRequest,
  finishedInOrder,
  heartbeatStats,
  hydrateResources,
  paginated,
  sequenceIdRequests,
  waitRequest,
} from './record-rules.js';
import type { ArmedWait } from './rollout-waiters.js';

export interface StoreClockOptions {
  /** Epoch seconds; injectable so tests can drive timestamps and the watchdog. */
  clock?: () => number;
  /** The watchdog runs at most once per this many seconds (upstream default 10; 0 = before every call). */
  scanDebounceSeconds?: number;
}

const systemClock = (): number => Date.now() / 1000;

/**
 * Agent Lightning v0.x store semantics, once for every storage: argument checks, the watchdog's debounce,
 * pagination, result shapes and waiting. A subclass runs `StoreSteps` inside its storage's transactions
 * (`read`, `write`) and says how to count, close and wait; a call that throws changes nothing.
 */
export abstract class BaseLightningStore<S extends StoreSteps> implements LightningStore {
  abstract readonly capabilities: LightningStoreCapabilities;

  protected readonly now: () => number;
  protected readonly debounceSeconds: number;
  protected closed = false;
  private readonly launchTime: number;
  private lastScanTime: number;

  protected constructor(options: StoreClockOptions = {}) {
    this.now = options.clock ?? systemClock;
    this.debounceSeconds = options.scanDebounceSeconds ?? 10;
    this.launchTime = this.now();
    // The first scan may run immediately after construction.
    this.lastScanTime = this.launchTime - this.debounceSeconds;
  }

  /** Runs a mutating step atomically; `scan` runs the watchdog first (for the methods upstream guards). */
  protected abstract write<T>(scan: boolean, step: (steps: S) => Awaitable<T>): Awaitable<T>;
  /** Runs reads against one consistent view; `scan` runs the watchdog first. */
  protected abstract read<T>(scan: boolean, step: (steps: S) => Awaitable<T>): Awaitable<T>;
  protected abstract counts(): Awaitable<BackendCounts>;
  /** A store that caps its memory reports the cap here (statistics' `memory_capacity_bytes` & co). */
  protected capacity(): BackendCapacity | undefined {
    return undefined;
  }
  /** Releases the storage (the store is already marked closed). */
  protected abstract release(): Promise<void> | void;
  /** Registers interest in rollouts finishing before they are read (see `waitForRollouts`). */
  protected abstract armWait(rolloutIds: readonly string[]): ArmedWait;
  /** Called once before a wait that may sleep. */
  protected prepareWait(): Promise<void> | void {}

  // ------------------------------------------------------------------ lifecycle

  async statistics(): Promise<LightningStoreStatistics> {
    this.ensureOpen();
    const counts = await this.counts();
    return {
      name: this.constructor.name,
      total_rollouts: counts.rollouts,
      total_attempts: counts.attempts,
      total_spans: counts.spans,
      total_resources: counts.resources,
      total_workers: counts.workers,
      uptime: this.now() - this.launchTime,
      total_span_bytes: counts.span_bytes,
      ...capacityStatistics(this.capacity()),
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.release();
  }

  // ------------------------------------------------------------------ rollouts and the queue

  async startRollout(params: StartRolloutParams): Promise<AttemptedRollout> {
    const workerId = p.optionalString('worker_id', params.worker_id);
    return this.write(true, (s) => s.startRollout(params, workerId));
  }

  async enqueueRollout(params: EnqueueRolloutParams): Promise<Rollout> {
    const [rollout] = await this.enqueueManyRollouts([params]);
    return rollout!;
  }

  async enqueueManyRollouts(requests: EnqueueRolloutParams[]): Promise<Rollout[]> {
    if (!Array.isArray(requests)) throw p.invalid('rollouts', 'expected a list');
    return this.write(true, (s) => s.enqueueRollouts(requests));
  }

  async dequeueRollout(params: DequeueParams = {}): Promise<AttemptedRollout | null> {
    const [rollout] = await this.dequeueManyRollouts({ ...params, limit: 1 });
    return rollout ?? null;
  }

  async dequeueManyRollouts(params: DequeueManyParams = {}): Promise<AttemptedRollout[]> {
    const { workerId, limit } = dequeueRequest(params);
    return this.write(true, (s) => s.dequeueRollouts(workerId, limit));
  }

  async startAttempt(
    rolloutId: string,
    params: StartAttemptParams = {},
  ): Promise<AttemptedRollout> {
    const workerId = p.optionalString('worker_id', params.worker_id);
    return this.write(true, (s) => s.startAttempt(rolloutId, workerId));
  }

  async queryRollouts(
    params: QueryRolloutsParams = {},
  ): Promise<PaginatedResult<Rollout | AttemptedRollout>> {
    const query = rolloutQuery(params);
    return then(
      this.read(true, (s) => s.queryRollouts(query)),
      paginatedPage,
      query,
    );
  }

  async getRolloutById(rolloutId: string): Promise<Rollout | AttemptedRollout | null> {
    return this.read(true, (s) => s.getRollout(rolloutId));
  }

  async updateRollout(rolloutId: string, params: UpdateRolloutParams): Promise<Rollout> {
    const changes = rolloutChanges(params);
    return this.write(true, (s) => s.updateRollout(rolloutId, changes));
  }

  async waitForRollouts(params: WaitForRolloutsParams): Promise<Rollout[]> {
    const { ids, timeout, deadline } = waitRequest(params);
    const finished = new Map<string, Rollout>();
    let pending = [...new Set(ids)];
    if (timeout !== 0 && pending.length > 0) await this.prepareWait();
    for (;;) {
      // Interest is registered before reading, so a finish committed in between still wakes the wait.
      // Only ids still pending are read again, so waiting on N rollouts costs O(N) reads per wake-up.
      const armed = this.armWait(pending);
      pending = await this.read(true, (s) => s.collectFinished(pending, finished));
      if (pending.length === 0 || Date.now() >= deadline || this.closed) {
        armed.cancel();
        break;
      }
      await armed.sleep(deadline - Date.now());
    }
    return finishedInOrder(ids, finished);
  }

  // ------------------------------------------------------------------ attempts

  async queryAttempts(
    rolloutId: string,
    params: QueryAttemptsParams = {},
  ): Promise<PaginatedResult<Attempt>> {
    const query = attemptQuery(params);
    return then(
      this.read(true, (s) => s.queryAttempts(rolloutId, query)),
      paginatedPage,
      query,
    );
  }

  async getLatestAttempt(rolloutId: string): Promise<Attempt | null> {
    return then(
      this.read(true, (s) => s.getLatestAttempt(rolloutId)),
      orNull,
      undefined,
    );
  }

  async updateAttempt(
    rolloutId: string,
    attemptId: string,
    params: UpdateAttemptParams,
  ): Promise<Attempt> {
    const changes = attemptChanges(params);
    return this.write(true, (s) => s.updateAttempt(rolloutId, attemptId, changes));
  }

  // ------------------------------------------------------------------ resources

  async addResources(resources: NamedResources): Promise<ResourcesUpdate> {
    const parsed = parseNamedResources(resources, 'resources');
    return this.write(false, (s) => s.putResources(parsed));
  }

  async updateResources(resourcesId: string, resources: NamedResources): Promise<ResourcesUpdate> {
    p.requireString('resources_id', resourcesId);
    const parsed = parseNamedResources(resources, 'resources');
    return this.write(true, (s) => s.putResources(parsed, resourcesId));
  }

  async getResourcesById(resourcesId: string): Promise<ResourcesUpdate | null> {
    return then(
      this.read(false, (s) => s.getResources(resourcesId)),
      hydrateResources,
      undefined,
    );
  }

  async getLatestResources(): Promise<ResourcesUpdate | null> {
    return then(
      this.read(false, (s) => s.getLatestResources()),
      hydrateResources,
      undefined,
    );
  }

  async queryResources(
    params: QueryResourcesParams = {},
  ): Promise<PaginatedResult<ResourcesUpdate>> {
    const query = resourcesQuery(params);
    return then(
      this.read(false, (s) => s.queryResources(query)),
      paginatedResources,
      query,
    );
  }

  // ------------------------------------------------------------------ spans

  async addSpan(span: Span): Promise<Span | null> {
    const [stored] = await this.addManySpans([span]);
    return stored ?? null;
  }

  async addManySpans(spans: Span[]): Promise<Span[]> {
    checkSpans(spans);
    if (spans.length === 0) {
      this.ensureOpen();
      return [];
    }
    return this.write(false, (s) => s.insertSpans(spans));
  }

  async addOtelSpan(
    rolloutId: string,
    attemptId: string,
    span: OtelSpanLike,
    sequenceId?: number | null,
  ): Promise<Span | null> {
    checkSequenceId(sequenceId);
    return this.write(false, (s) => s.addOtelSpan(rolloutId, attemptId, span, sequenceId));
  }

  async getNextSpanSequenceId(rolloutId: string, _attemptId: string): Promise<number> {
    p.requireString('rollout_id', rolloutId);
    return this.write(false, (s) => s.allocateSequenceId(rolloutId));
  }

  async getManySpanSequenceIds(rolloutAttemptIds: Array<[string, string]>): Promise<number[]> {
    const { rolloutIds, counts } = sequenceIdRequests(rolloutAttemptIds);
    return then(
      this.write(false, (s) => s.allocateSequenceIds(counts)),
      sequenceIdsInOrder,
      rolloutIds,
    );
  }

  async querySpans(
    rolloutId: string,
    params: QuerySpansParams = {},
  ): Promise<PaginatedResult<Span>> {
    const query = spanQuery(rolloutId, params);
    const page = this.read(true, (s) =>
      query.attempt_id === 'latest'
        ? then(s.getLatestAttempt(rolloutId), spansOfAttempt, { steps: s, query })
        : s.querySpans(query),
    );
    return then(page, paginatedPage, query);
  }

  // ------------------------------------------------------------------ workers

  async queryWorkers(params: QueryWorkersParams = {}): Promise<PaginatedResult<Worker>> {
    const query = workerQuery(params);
    return then(
      this.read(true, (s) => s.queryWorkers(query)),
      paginatedPage,
      query,
    );
  }

  async getWorkerById(workerId: string): Promise<Worker | null> {
    return then(
      this.read(false, (s) => s.getWorker(workerId)),
      orNull,
      undefined,
    );
  }

  async updateWorker(workerId: string, params: UpdateWorkerParams = {}): Promise<Worker> {
    p.requireString('worker_id', workerId);
    const stats = heartbeatStats(params);
    return this.write(false, (s) => s.updateWorker(workerId, stats));
  }

  // ------------------------------------------------------------------ internals

  protected ensureOpen(): void {
    if (this.closed) throw new StoreClosedError('the store is closed');
  }

  /** Whether the debounced watchdog is due at `now`. */
  protected scanDue(now: number): boolean {
    return !(this.debounceSeconds > 0 && now - this.lastScanTime < this.debounceSeconds);
  }

  /** A scan starts at `now`: the debounce restarts from it. */
  protected scanStarted(now: number): void {
    this.lastScanTime = now;
  }
}

/**
 * `fn(value, arg)` now when `value` is plain, after it resolves when it is a promise: one code path for
 * synchronous and asynchronous storage, with no await (and no closure) on the synchronous one.
 */
function then<T, A, R>(
  value: Awaitable<T>,
  fn: (value: T, arg: A) => Awaitable<R>,
  arg: A,
): Awaitable<R> {
  return value instanceof Promise ? value.then((v) => fn(v, arg)) : fn(value, arg);
}

const paginatedPage = <T>(page: Page<T>, query: PageQuery): PaginatedResult<T> =>
  paginated(page.items, page, query);

const paginatedResources = (
  page: Page<ResourcesUpdate>,
  query: PageQuery,
): PaginatedResult<ResourcesUpdate> =>
  paginated(
    page.items.map((u) => hydrateResources(u)!),
    page,
    query,
  );

const orNull = <T>(value: T | undefined): T | null => value ?? null;

const sequenceIdsInOrder = (first: Map<string, number>, rolloutIds: string[]): number[] =>
  assignSequenceIds(rolloutIds, first);

/** `querySpans` with `attempt_id: 'latest'`: the latest attempt's spans, none when there is no attempt. */
function spansOfAttempt(
  latest: Attempt | undefined,
  { steps, query }: { steps: StoreSteps; query: SpanQuery },
): Awaitable<Page<Span>> {
  if (!latest) return { items: [], total: 0 };
  query.attempt_id = latest.attempt_id;
  return steps.querySpans(query);
}

/** Upstream's memory fields of `statistics()`: null for an uncapped store. */
function capacityStatistics(capacity: BackendCapacity | undefined) {
  const bytes = capacity && Number.isFinite(capacity.maxSpanBytes) ? capacity.maxSpanBytes : null;
  return {
    eviction_threshold_bytes: bytes,
    safe_threshold_bytes: bytes === null ? null : Math.floor(bytes * capacity!.safeFraction),
    memory_capacity_bytes: bytes,
    ...(capacity && {
      max_spans: Number.isFinite(capacity.maxSpans) ? capacity.maxSpans : null,
      evicted_spans: capacity.evictedSpans,
      evicted_rollouts: capacity.evictedRollouts,
    }),
  };
}
