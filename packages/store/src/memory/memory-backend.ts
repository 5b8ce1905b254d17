/**
 * In-memory `StoreBackend`.
 *
 * Transactions: `transaction(fn)` runs `fn` synchronously with an undo log open (see undo-journal.ts);
 * every mutating method records how to revert its write, and a throwing `fn` is rolled back completely.
 * Nested calls join the outer transaction and roll back only their own writes when they throw. Outside a
 * transaction each mutating call is atomic on its own (it validates before writing; `insertSpans` runs
 * under its own undo log).
 *
 * Copy policy (decided for speed; consistent across every getter, query and write):
 * - Rollouts, attempts, workers and resources updates are copied on the way in and on the way out, so the
 *   stored object is never reachable from outside (the store above may keep using the object it passed).
 *   A copy is a fresh top-level object plus fresh copies of the small record-state objects the store
 *   updates: `Rollout.config` (with its `retry_condition` array), `Rollout.metadata`, `Attempt.metadata`,
 *   `Worker.heartbeat_stats` (deep copies of their plain-object/array structure) and the
 *   `ResourcesUpdate.resources` name → resource map.
 * - Payloads are shared and must be treated as read-only (replace them, never mutate in place):
 *   `Rollout.input` and the resource instances inside `ResourcesUpdate.resources`.
 * - Spans are immutable once stored: they are stored as passed in (the caller must not mutate a span after
 *   inserting it) and returned as a fresh top-level object whose nested values (attributes, events, links,
 *   context, resource, …) are shared with the stored span and must not be mutated.
 *
 * Indexes: primary keys are Map lookups; rollouts are indexed by status; attempts are grouped by rollout
 * with the latest attempt tracked; spans are grouped by rollout and attempt; the queue is an array with
 * a head index; the latest resources update is tracked on write.
 */
import {
  type Attempt,
  type ResourcesUpdate,
  type Rollout,
  type RolloutStatus,
  type Span,
  StoreClosedError,
  ValidationError,
  type Worker,
} from '@arclight/core';
import type {
  BackendCapacity,
  BackendCounts,
  Page,
  PageQuery,
  ResourcesQuery,
  RolloutQuery,
  SpanQuery,
  StoreBackend,
  WorkerQuery,
} from '../backend.js';
import { addSpanFilters } from '../queries.js';
import { AttemptTable } from './attempt-table.js';
import { copyAttempt, copyResources, copyRollout, copySpan, copyWorker } from './copy.js';
import { FifoQueue } from './fifo-queue.js';
import { both, Conditions, paginate, SortedPages } from './query.js';
import { ResourcesTable } from './resources-table.js';
import { RolloutTable } from './rollout-table.js';
import {
  makeRoom,
  resolveSpanCap,
  type SpanCapLimits,
  type SpanCapOptions,
  SpansEvictedError,
} from './span-cap.js';
import { estimateSpanBytes, type SpanSizeEstimator, SpanTable } from './span-table.js';
import { UndoJournal } from './undo-journal.js';

export interface MemoryBackendOptions extends SpanCapOptions {
  /** Size of a span in bytes for `counts().span_bytes`; default: about the length of its JSON text. */
  spanSizeEstimator?: SpanSizeEstimator;
}

export class MemoryBackend implements StoreBackend {
  readonly name = 'memory';

  private readonly journal = new UndoJournal();
  private readonly rollouts = new RolloutTable(this.journal);
  private readonly sortedRollouts = new SortedPages<Rollout>(
    (rollout) => rollout.rollout_id,
    (rolloutId) => this.rollouts.get(rolloutId),
  );
  private readonly attempts = new AttemptTable(this.journal);
  private readonly spans: SpanTable;
  private readonly queue = new FifoQueue<string>();
  /** rollout_id → last sequence id handed out (or raised to). */
  private readonly sequenceIds = new Map<string, number>();
  private readonly resources = new ResourcesTable(this.journal);
  private readonly workers = new Map<string, Worker>();
  private closed = false;
  private readonly cap: SpanCapLimits | undefined;
  private readonly estimate: SpanSizeEstimator;
  /** Rollouts whose spans were evicted under the cap. */
  private readonly evictedRollouts = new Set<string>();
  private evictedSpans = 0;

  constructor(options: MemoryBackendOptions = {}) {
    this.estimate = options.spanSizeEstimator ?? estimateSpanBytes;
    this.spans = new SpanTable(this.journal, this.estimate);
    this.cap = resolveSpanCap(options);
  }

  /** The span cap (undefined when uncapped) and how much it has evicted so far. */
  capacity(): BackendCapacity | undefined {
    if (this.cap === undefined) return undefined;
    return {
      ...this.cap,
      evictedSpans: this.evictedSpans,
      evictedRollouts: this.evictedRollouts.size,
    };
  }

  transaction<T>(fn: () => T): T {
    this.ensureOpen();
    return this.journal.run(fn);
  }

  /** Single-threaded memory is always consistent: reads need no isolation. */
  snapshot<T>(fn: () => T): T {
    this.ensureOpen();
    return fn();
  }

  /** Drops all data; later calls throw `StoreClosedError`. Idempotent. */
  close(): void {
    this.closed = true;
    this.rollouts.clear();
    this.sortedRollouts.clear();
    this.attempts.clear();
    this.spans.clear();
    this.queue.clear();
    this.sequenceIds.clear();
    this.resources.clear();
    this.workers.clear();
  }

  // ---- rollouts ----

  insertRollout(rollout: Rollout): void {
    this.ensureOpen();
    this.rollouts.insert(copyRollout(rollout));
  }

  putRollout(rollout: Rollout): void {
    this.ensureOpen();
    this.rollouts.put(copyRollout(rollout));
  }

  getRollout(rolloutId: string): Rollout | undefined {
    this.ensureOpen();
    const rollout = this.rollouts.get(rolloutId);
    return rollout && copyRollout(rollout);
  }

  queryRollouts(query: RolloutQuery): Page<Rollout> {
    this.ensureOpen();
    const match = new Conditions<Rollout>()
      .within('status', query.status_in)
      .within('rollout_id', query.rollout_id_in)
      .contains('rollout_id', query.rollout_id_contains)
      .combine(query.filter_logic);
    const filter = () =>
      JSON.stringify([
        query.status_in,
        query.rollout_id_in,
        query.rollout_id_contains,
        query.filter_logic,
      ]);
    return this.sortedRollouts.page(
      this.rollouts.version,
      () => this.rollouts.candidates(query),
      match,
      filter,
      query,
      copyRollout,
    );
  }

  rolloutsWithStatus(statuses: readonly RolloutStatus[]): Rollout[] {
    this.ensureOpen();
    return this.rollouts.withStatus(statuses).map(copyRollout);
  }

  // ---- queue ----

  pushQueue(rolloutIds: string[]): void {
    this.ensureOpen();
    if (rolloutIds.length === 0) return;
    this.queue.push(rolloutIds);
    const count = rolloutIds.length;
    if (this.journal.active) this.journal.record(() => this.queue.dropTail(count));
  }

  popQueue(): string | undefined {
    this.ensureOpen();
    const head = this.queue.shift();
    if (head !== undefined && this.journal.active) {
      this.journal.record(() => this.queue.unshift(head));
    }
    return head;
  }

  queueSize(): number {
    this.ensureOpen();
    return this.queue.size;
  }

  queueHas(rolloutId: string): boolean {
    this.ensureOpen();
    return this.queue.has(rolloutId);
  }

  // ---- attempts ----

  insertAttempt(attempt: Attempt): void {
    this.ensureOpen();
    this.attempts.insert(copyAttempt(attempt));
  }

  putAttempt(attempt: Attempt): void {
    this.ensureOpen();
    this.attempts.put(copyAttempt(attempt));
  }

  getAttempt(rolloutId: string, attemptId: string): Attempt | undefined {
    this.ensureOpen();
    const attempt = this.attempts.get(rolloutId, attemptId);
    return attempt && copyAttempt(attempt);
  }

  getLatestAttempt(rolloutId: string): Attempt | undefined {
    this.ensureOpen();
    const attempt = this.attempts.latest(rolloutId);
    return attempt && copyAttempt(attempt);
  }

  latestAttemptId(rolloutId: string): string | undefined {
    this.ensureOpen();
    return this.attempts.latest(rolloutId)?.attempt_id;
  }

  latestAttempts(rolloutIds: string[]): Map<string, Attempt> {
    this.ensureOpen();
    const result = new Map<string, Attempt>();
    for (const rolloutId of rolloutIds) {
      if (result.has(rolloutId)) continue;
      const attempt = this.attempts.latest(rolloutId);
      if (attempt !== undefined) result.set(rolloutId, copyAttempt(attempt));
    }
    return result;
  }

  countAttempts(rolloutId: string): number {
    this.ensureOpen();
    return this.attempts.count(rolloutId);
  }

  queryAttempts(rolloutId: string, query: PageQuery): Page<Attempt> {
    this.ensureOpen();
    return paginate(this.attempts.ofRollout(rolloutId), null, query, copyAttempt);
  }

  // ---- spans ----

  insertSpans(spans: Span[]): boolean[] {
    this.ensureOpen();
    if (this.cap !== undefined) this.makeRoom(this.cap, spans);
    return this.journal.run(() => spans.map((span) => this.spans.insert(span)));
  }

  private makeRoom(cap: SpanCapLimits, incoming: Span[]): void {
    const spans = this.spans;
    makeRoom(
      cap,
      {
        get spanCount() {
          return spans.size;
        },
        get spanBytes() {
          return spans.bytes;
        },
        rolloutIdsWithSpans: () => [...spans.rolloutIds()],
        isFinished: (rolloutId) => {
          const status = this.rollouts.get(rolloutId)?.status;
          return status === 'succeeded' || status === 'failed' || status === 'cancelled';
        },
        evict: (rolloutId) => {
          this.evictedSpans += spans.evictRollout(rolloutId).spans;
          this.evictedRollouts.add(rolloutId);
        },
        estimate: (span) => Math.max(0, Math.floor(this.estimate(span)) || 0),
      },
      incoming,
    );
  }

  querySpans(query: SpanQuery): Page<Span> {
    this.ensureOpen();
    if (this.evictedRollouts.has(query.rollout_id)) {
      throw new SpansEvictedError(
        `Spans of rollout ${query.rollout_id} were evicted to keep the in-memory store under its cap ` +
          '(finished rollouts are evicted oldest first); use the sqlite backend to keep every span',
      );
    }
    const match = addSpanFilters(new Conditions<Span>(), query).combine(query.filter_logic);
    // The candidates already satisfy rollout_id and attempt_id; the check keeps them ANDed regardless.
    const must = new Conditions<Span>()
      .equals('rollout_id', query.rollout_id)
      .equals('attempt_id', query.attempt_id)
      .combine('and');
    const candidates = this.spans.candidates(query.rollout_id, query.attempt_id ?? null);
    return paginate(candidates, both(must, match), query, copySpan);
  }

  // ---- span sequence counter ----

  allocateSequenceIds(rolloutId: string, count: number): number {
    this.ensureOpen();
    if (!Number.isInteger(count) || count < 0) {
      throw new ValidationError(
        `allocateSequenceIds: count must be a non-negative integer, got ${count}`,
      );
    }
    const last = this.sequenceIds.get(rolloutId);
    const first = (last ?? 0) + 1;
    if (count > 0) this.setSequenceId(rolloutId, last, first + count - 1);
    return first;
  }

  raiseSequenceId(rolloutId: string, sequenceId: number): void {
    this.ensureOpen();
    if (!Number.isFinite(sequenceId)) {
      throw new ValidationError(
        `raiseSequenceId: sequenceId must be a finite number, got ${sequenceId}`,
      );
    }
    const last = this.sequenceIds.get(rolloutId);
    const floor = Math.floor(sequenceId);
    if (floor > (last ?? 0)) this.setSequenceId(rolloutId, last, floor);
  }

  // ---- resources ----

  putResources(update: ResourcesUpdate): void {
    this.ensureOpen();
    this.resources.put(copyResources(update));
  }

  getResources(resourcesId: string): ResourcesUpdate | undefined {
    this.ensureOpen();
    const update = this.resources.get(resourcesId);
    return update && copyResources(update);
  }

  getLatestResources(): ResourcesUpdate | undefined {
    this.ensureOpen();
    const update = this.resources.latest();
    return update && copyResources(update);
  }

  queryResources(query: ResourcesQuery): Page<ResourcesUpdate> {
    this.ensureOpen();
    const match = new Conditions<ResourcesUpdate>()
      .equals('resources_id', query.resources_id)
      .contains('resources_id', query.resources_id_contains)
      .combine('and');
    return paginate(this.resources.all(), match, query, copyResources);
  }

  // ---- workers ----

  putWorker(input: Worker): void {
    this.ensureOpen();
    const worker = copyWorker(input);
    const id = worker.worker_id;
    const old = this.workers.get(id);
    this.workers.set(id, worker);
    if (this.journal.active) {
      this.journal.record(() => {
        if (old === undefined) this.workers.delete(id);
        else this.workers.set(id, old);
      });
    }
  }

  getWorker(workerId: string): Worker | undefined {
    this.ensureOpen();
    const worker = this.workers.get(workerId);
    return worker && copyWorker(worker);
  }

  queryWorkers(query: WorkerQuery): Page<Worker> {
    this.ensureOpen();
    const match = new Conditions<Worker>()
      .within('status', query.status_in)
      .contains('worker_id', query.worker_id_contains)
      .combine(query.filter_logic);
    return paginate(this.workers.values(), match, query, copyWorker);
  }

  counts(): BackendCounts {
    this.ensureOpen();
    return {
      rollouts: this.rollouts.size,
      attempts: this.attempts.size,
      spans: this.spans.size,
      resources: this.resources.size,
      workers: this.workers.size,
      span_bytes: this.spans.bytes,
    };
  }

  // ---- internals ----

  private ensureOpen(): void {
    if (this.closed) throw new StoreClosedError(`${this.name} backend is closed`);
  }

  private setSequenceId(rolloutId: string, previous: number | undefined, next: number): void {
    this.sequenceIds.set(rolloutId, next);
    if (this.journal.active) {
      this.journal.record(() => {
        if (previous === undefined) this.sequenceIds.delete(rolloutId);
        else this.sequenceIds.set(rolloutId, previous);
      });
    }
  }
}
