import {
  type Attempt,
  type AttemptedRollout,
  isQueuing,
  type NamedResources,
  type OtelSpanLike,
  type PaginatedResult,
  parseNamedResources,
  type ResourcesUpdate,
  type Rollout,
  type Span,
  StoreClosedError,
  spanFromOtel,
  type Worker,
} from '@arclight/core';
import type { BackendCapacity, StoreBackend } from './backend.js';
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
  attemptStarted,
  checkSequenceId,
  checkSpans,
  dequeueRequest,
  enqueueLabel,
  finishedInOrder,
  heartbeatStats,
  hydrateResources,
  newAttemptRecord,
  newRolloutRecord,
  paginated,
  resourcesRecord,
  sequenceIdRequests,
  targetAttempt,
  waitRequest,
  workerHeartbeat,
} from './record-rules.js';
import { RolloutWaiters } from './rollout-waiters.js';
import { markWorkerIdleAfterEmptyDequeue } from './semantics/worker-sync.js';
import { StoreOperations } from './store-operations.js';

export interface BaseStoreOptions {
  /** Epoch seconds; injectable so tests can drive timestamps and the watchdog. */
  clock?: () => number;
  /** The watchdog runs at most once per this many seconds (upstream default 10; 0 = before every call). */
  scanDebounceSeconds?: number;
  /** How often a waiting `waitForRollouts` re-reads the backend (other processes may write it). */
  waitPollSeconds?: number;
}

const systemClock = (): number => Date.now() / 1000;

/**
 * Agent Lightning v0.x store semantics over any `StoreBackend`. Every public call runs synchronously inside
 * one backend transaction, so calls are atomic and isolated from each other within a process (and, for
 * SQLite, across processes), and a call that throws changes nothing.
 */
export abstract class BaseLightningStore implements LightningStore {
  abstract readonly capabilities: LightningStoreCapabilities;

  protected readonly backend: StoreBackend;
  private readonly now: () => number;
  private readonly debounceSeconds: number;
  private readonly launchTime: number;
  private lastScanTime: number;
  private scanning = false;
  private closed = false;
  private readonly waiters: RolloutWaiters;
  private readonly ops: StoreOperations;

  protected constructor(backend: StoreBackend, options: BaseStoreOptions = {}) {
    this.backend = backend;
    this.now = options.clock ?? systemClock;
    this.debounceSeconds = options.scanDebounceSeconds ?? 10;
    this.launchTime = this.now();
    // The first scan may run immediately after construction.
    this.lastScanTime = this.launchTime - this.debounceSeconds;
    this.waiters = new RolloutWaiters((options.waitPollSeconds ?? 0.05) * 1000);
    this.ops = new StoreOperations(backend, this.now);
  }

  // ------------------------------------------------------------------ lifecycle

  async statistics(): Promise<LightningStoreStatistics> {
    this.ensureOpen();
    const counts = this.backend.counts();
    return {
      name: this.constructor.name,
      total_rollouts: counts.rollouts,
      total_attempts: counts.attempts,
      total_spans: counts.spans,
      total_resources: counts.resources,
      total_workers: counts.workers,
      uptime: this.now() - this.launchTime,
      total_span_bytes: counts.span_bytes,
      ...capacityStatistics(this.backend.capacity?.()),
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.waiters.wakeAll();
    this.backend.close();
  }

  // ------------------------------------------------------------------ rollouts and the queue

  async startRollout(params: StartRolloutParams): Promise<AttemptedRollout> {
    const workerId = p.optionalString('worker_id', params.worker_id);
    return this.write(true, () => {
      const latest = this.backend.getLatestResources()?.resources_id ?? null;
      const rollout = newRolloutRecord(params, 'preparing', latest, this.now());
      const attempt = newAttemptRecord(rollout.rollout_id, 1, workerId, rollout.start_time);
      this.backend.insertRollout(rollout);
      this.backend.insertAttempt(attempt);
      if (workerId) this.ops.syncWorker(attempt, false);
      return { ...rollout, attempt };
    });
  }

  async enqueueRollout(params: EnqueueRolloutParams): Promise<Rollout> {
    const [rollout] = await this.enqueueManyRollouts([params]);
    return rollout!;
  }

  async enqueueManyRollouts(requests: EnqueueRolloutParams[]): Promise<Rollout[]> {
    if (!Array.isArray(requests)) throw p.invalid('rollouts', 'expected a list');
    return this.write(true, () => {
      const latest = this.backend.getLatestResources()?.resources_id ?? null;
      const now = this.now();
      const rollouts = requests.map((request, i) =>
        newRolloutRecord(request, 'queuing', latest, now, enqueueLabel(i, requests.length)),
      );
      for (const rollout of rollouts) this.backend.insertRollout(rollout);
      this.backend.pushQueue(rollouts.map((r) => r.rollout_id));
      return rollouts;
    });
  }

  async dequeueRollout(params: DequeueParams = {}): Promise<AttemptedRollout | null> {
    const [rollout] = await this.dequeueManyRollouts({ ...params, limit: 1 });
    return rollout ?? null;
  }

  async dequeueManyRollouts(params: DequeueManyParams = {}): Promise<AttemptedRollout[]> {
    const { workerId, limit } = dequeueRequest(params);
    return this.write(true, () => {
      const now = this.now();
      const dequeued: AttemptedRollout[] = [];
      while (dequeued.length < limit) {
        const rolloutId = this.backend.popQueue();
        if (rolloutId === undefined) break;
        const rollout = this.backend.getRollout(rolloutId);
        // Ids whose rollout left the queuing states while queued are skipped.
        if (!rollout || !isQueuing(rollout.status)) continue;
        const count = this.backend.countAttempts(rolloutId);
        const attempt = newAttemptRecord(rolloutId, count + 1, workerId, now);
        this.backend.insertAttempt(attempt);
        dequeued.push(attemptStarted(rollout, attempt));
        this.backend.putRollout(rollout);
      }
      if (workerId) {
        const last = dequeued.at(-1);
        if (last) this.ops.syncWorker(last.attempt, true);
        else
          this.backend.putWorker(markWorkerIdleAfterEmptyDequeue(this.ops.worker(workerId), now));
      }
      return dequeued;
    });
  }

  async startAttempt(
    rolloutId: string,
    params: StartAttemptParams = {},
  ): Promise<AttemptedRollout> {
    const workerId = p.optionalString('worker_id', params.worker_id);
    return this.write(true, () => {
      const rollout = this.ops.requireRollout(rolloutId);
      const count = this.backend.countAttempts(rolloutId);
      const attempt = newAttemptRecord(rolloutId, count + 1, workerId, this.now());
      this.backend.insertAttempt(attempt);
      const attempted = attemptStarted(rollout, attempt);
      this.backend.putRollout(rollout);
      if (workerId) this.ops.syncWorker(attempt, false);
      return attempted;
    });
  }

  async queryRollouts(
    params: QueryRolloutsParams = {},
  ): Promise<PaginatedResult<Rollout | AttemptedRollout>> {
    const query = rolloutQuery(params);
    return this.read(true, () => {
      const page = this.backend.queryRollouts(query);
      return paginated(this.ops.withLatestAttempts(page.items), page, query);
    });
  }

  async getRolloutById(rolloutId: string): Promise<Rollout | AttemptedRollout | null> {
    return this.read(true, () => {
      const rollout = this.backend.getRollout(rolloutId);
      return rollout ? (this.ops.withLatestAttempts([rollout])[0] ?? null) : null;
    });
  }

  async updateRollout(rolloutId: string, params: UpdateRolloutParams): Promise<Rollout> {
    const changes = rolloutChanges(params);
    return this.write(true, () => {
      const rollout = this.ops.requireRollout(rolloutId);
      return this.ops.applyRolloutUpdate(rollout, changes);
    });
  }

  async waitForRollouts(params: WaitForRolloutsParams): Promise<Rollout[]> {
    const { ids, deadline } = waitRequest(params);
    const finished = new Map<string, Rollout>();
    let pending = [...new Set(ids)];
    for (;;) {
      // Only ids still pending are read again, so waiting on N rollouts costs O(N) reads per wake-up.
      pending = this.read(true, () => this.ops.collectFinished(pending, finished));
      if (pending.length === 0 || Date.now() >= deadline || this.closed) break;
      await this.waiters.wait(pending, deadline - Date.now());
    }
    return finishedInOrder(ids, finished);
  }

  // ------------------------------------------------------------------ attempts

  async queryAttempts(
    rolloutId: string,
    params: QueryAttemptsParams = {},
  ): Promise<PaginatedResult<Attempt>> {
    const query = attemptQuery(params);
    return this.read(true, () => {
      const page = this.backend.queryAttempts(rolloutId, query);
      return paginated(page.items, page, query);
    });
  }

  async getLatestAttempt(rolloutId: string): Promise<Attempt | null> {
    return this.read(true, () => this.backend.getLatestAttempt(rolloutId) ?? null);
  }

  async updateAttempt(
    rolloutId: string,
    attemptId: string,
    params: UpdateAttemptParams,
  ): Promise<Attempt> {
    const changes = attemptChanges(params);
    return this.write(true, () => {
      const rollout = this.ops.requireRollout(rolloutId);
      const latest = this.backend.getLatestAttempt(rolloutId);
      const attempt = targetAttempt(rolloutId, attemptId, latest, (id) =>
        this.backend.getAttempt(rolloutId, id),
      );
      const isLatest = attempt.attempt_id === latest?.attempt_id;
      return this.ops.applyAttemptUpdate(rollout, attempt, isLatest, changes);
    });
  }

  // ------------------------------------------------------------------ resources

  async addResources(resources: NamedResources): Promise<ResourcesUpdate> {
    const parsed = parseNamedResources(resources, 'resources');
    return this.write(false, () => {
      const update = resourcesRecord(parsed, this.now());
      this.backend.putResources(update);
      return update;
    });
  }

  async updateResources(resourcesId: string, resources: NamedResources): Promise<ResourcesUpdate> {
    p.requireString('resources_id', resourcesId);
    const parsed = parseNamedResources(resources, 'resources');
    return this.write(true, () => {
      const existing = this.backend.getResources(resourcesId);
      const update = resourcesRecord(parsed, this.now(), { resourcesId, existing });
      this.backend.putResources(update);
      return update;
    });
  }

  async getResourcesById(resourcesId: string): Promise<ResourcesUpdate | null> {
    return this.read(false, () => hydrateResources(this.backend.getResources(resourcesId)));
  }

  async getLatestResources(): Promise<ResourcesUpdate | null> {
    return this.read(false, () => hydrateResources(this.backend.getLatestResources()));
  }

  async queryResources(
    params: QueryResourcesParams = {},
  ): Promise<PaginatedResult<ResourcesUpdate>> {
    const query = resourcesQuery(params);
    return this.read(false, () => {
      const page = this.backend.queryResources(query);
      return paginated(
        page.items.map((u) => hydrateResources(u)!),
        page,
        query,
      );
    });
  }

  // ------------------------------------------------------------------ spans

  async addSpan(span: Span): Promise<Span | null> {
    const [stored] = await this.addManySpans([span]);
    return stored ?? null;
  }

  async addManySpans(spans: Span[]): Promise<Span[]> {
    checkSpans(spans);
    return this.write(false, () => this.ops.insertSpans(spans));
  }

  async addOtelSpan(
    rolloutId: string,
    attemptId: string,
    span: OtelSpanLike,
    sequenceId?: number | null,
  ): Promise<Span | null> {
    checkSequenceId(sequenceId);
    return this.write(false, () => {
      this.ops.requireAttempt(rolloutId, attemptId);
      const seq = sequenceId ?? this.backend.allocateSequenceIds(rolloutId, 1);
      const converted = spanFromOtel(span, rolloutId, attemptId, seq);
      return this.ops.insertSpans([converted])[0] ?? null;
    });
  }

  async getNextSpanSequenceId(rolloutId: string, _attemptId: string): Promise<number> {
    p.requireString('rollout_id', rolloutId);
    return this.write(false, () => this.backend.allocateSequenceIds(rolloutId, 1));
  }

  async getManySpanSequenceIds(rolloutAttemptIds: Array<[string, string]>): Promise<number[]> {
    const { rolloutIds, counts } = sequenceIdRequests(rolloutAttemptIds);
    return this.write(false, () => {
      const first = new Map<string, number>();
      for (const [id, count] of counts) first.set(id, this.backend.allocateSequenceIds(id, count));
      return assignSequenceIds(rolloutIds, first);
    });
  }

  async querySpans(
    rolloutId: string,
    params: QuerySpansParams = {},
  ): Promise<PaginatedResult<Span>> {
    const query = spanQuery(rolloutId, params);
    return this.read(true, () => {
      if (query.attempt_id === 'latest') {
        const latest = this.backend.getLatestAttempt(rolloutId);
        if (!latest) return paginated([], { items: [], total: 0 }, query);
        query.attempt_id = latest.attempt_id;
      }
      const page = this.backend.querySpans(query);
      return paginated(page.items, page, query);
    });
  }

  // ------------------------------------------------------------------ workers

  async queryWorkers(params: QueryWorkersParams = {}): Promise<PaginatedResult<Worker>> {
    const query = workerQuery(params);
    return this.read(true, () => {
      const page = this.backend.queryWorkers(query);
      return paginated(page.items, page, query);
    });
  }

  async getWorkerById(workerId: string): Promise<Worker | null> {
    return this.read(false, () => this.backend.getWorker(workerId) ?? null);
  }

  async updateWorker(workerId: string, params: UpdateWorkerParams = {}): Promise<Worker> {
    p.requireString('worker_id', workerId);
    const stats = heartbeatStats(params);
    return this.write(false, () => {
      const worker = workerHeartbeat(this.ops.worker(workerId), stats, this.now());
      this.backend.putWorker(worker);
      return worker;
    });
  }

  // ------------------------------------------------------------------ internals

  /** Runs a mutating call atomically; `scan` runs the watchdog first (for the methods upstream guards). */
  private write<T>(scan: boolean, fn: () => T): T {
    this.ensureOpen();
    if (scan) this.scanForUnhealthyRollouts();
    const { result, finished } = this.backend.transaction(() => {
      this.ops.finished = [];
      const value = fn();
      return { result: value, finished: this.ops.finished };
    });
    this.ops.finished = [];
    if (finished.length > 0) this.waiters.notify(finished);
    return result;
  }

  private read<T>(scan: boolean, fn: () => T): T {
    this.ensureOpen();
    if (scan) this.scanForUnhealthyRollouts();
    return this.backend.snapshot(fn);
  }

  private ensureOpen(): void {
    if (this.closed) throw new StoreClosedError('the store is closed');
  }

  /** The lazy, debounced watchdog: times out and marks unresponsive the latest attempts of running rollouts. */
  private scanForUnhealthyRollouts(): void {
    if (this.scanning) return;
    const now = this.now();
    if (this.debounceSeconds > 0 && now - this.lastScanTime < this.debounceSeconds) return;
    this.lastScanTime = now;
    this.scanning = true;
    try {
      this.write(false, () => this.ops.scanUnhealthyRollouts(now));
    } finally {
      this.scanning = false;
    }
  }
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
