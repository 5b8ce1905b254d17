import {
  type Attempt,
  type AttemptedRollout,
  isQueuing,
  type NamedResources,
  NotFoundError,
  type OtelSpanLike,
  type ResourcesUpdate,
  type Rollout,
  type Span,
  spanFromOtel,
  type Worker,
} from '@arclight/core';
import type {
  Page,
  PageQuery,
  ResourcesQuery,
  RolloutQuery,
  SpanQuery,
  StoreBackend,
  StoreSteps,
  WorkerQuery,
} from './backend.js';
import type { EnqueueRolloutParams, StartRolloutParams } from './lightning-store.js';
import {
  applyAttemptChanges,
  applyRolloutChanges,
  attemptHeartbeat,
  attemptStarted,
  collectFinished,
  enqueueLabel,
  newAttemptRecord,
  newRolloutRecord,
  resourcesRecord,
  rolloutHeartbeat,
  targetAttempt,
  withLatestAttempt,
  workerHeartbeat,
} from './record-rules.js';
import { rolloutStatusFromAttempt } from './semantics/rollout-status.js';
import { unhealthyStatus } from './semantics/watchdog.js';
import {
  markWorkerIdleAfterEmptyDequeue,
  newWorker,
  syncWorkerWithAttempt,
} from './semantics/worker-sync.js';

interface SpanGroup {
  rolloutId: string;
  attemptId: string;
  maxSeq: number;
  /** Whether at least one span of the group was new. */
  stored: boolean;
}

/**
 * The store's `StoreSteps` over a synchronous `StoreBackend`, run inside one backend transaction by
 * `BackendLightningStore`: creating rollouts and attempts, propagating attempt status to rollouts (retries,
 * end times, re-enqueueing), keeping workers in sync, span writes as heartbeats, and the watchdog's scan.
 * Every step returns a plain value (no promise), so memory and SQLite calls take no extra await.
 */
export class StoreOperations implements StoreSteps {
  finished: string[] = [];

  constructor(
    private readonly backend: StoreBackend,
    private readonly now: () => number,
  ) {}

  // ------------------------------------------------------------------ rollouts and the queue

  startRollout(params: StartRolloutParams, workerId: string | null): AttemptedRollout {
    const latest = this.backend.getLatestResources()?.resources_id ?? null;
    const rollout = newRolloutRecord(params, 'preparing', latest, this.now());
    const attempt = newAttemptRecord(rollout.rollout_id, 1, workerId, rollout.start_time);
    this.backend.insertRollout(rollout);
    this.backend.insertAttempt(attempt);
    if (workerId) this.syncWorker(attempt, false);
    return { ...rollout, attempt };
  }

  enqueueRollouts(requests: EnqueueRolloutParams[]): Rollout[] {
    const latest = this.backend.getLatestResources()?.resources_id ?? null;
    const now = this.now();
    const rollouts = requests.map((request, i) =>
      newRolloutRecord(request, 'queuing', latest, now, enqueueLabel(i, requests.length)),
    );
    for (const rollout of rollouts) this.backend.insertRollout(rollout);
    this.backend.pushQueue(rollouts.map((r) => r.rollout_id));
    return rollouts;
  }

  dequeueRollouts(workerId: string | null, limit: number): AttemptedRollout[] {
    const now = this.now();
    const dequeued: AttemptedRollout[] = [];
    while (dequeued.length < limit) {
      const rolloutId = this.backend.popQueue();
      if (rolloutId === undefined) break;
      const rollout = this.backend.getRollout(rolloutId);
      // Ids whose rollout left the queuing states while queued are skipped.
      if (!rollout || !isQueuing(rollout.status)) continue;
      dequeued.push(this.addAttempt(rollout, workerId, now));
    }
    if (workerId) {
      const last = dequeued.at(-1);
      if (last) this.syncWorker(last.attempt, true);
      else this.backend.putWorker(markWorkerIdleAfterEmptyDequeue(this.worker(workerId), now));
    }
    return dequeued;
  }

  startAttempt(rolloutId: string, workerId: string | null): AttemptedRollout {
    const attempted = this.addAttempt(this.requireRollout(rolloutId), workerId, this.now());
    if (workerId) this.syncWorker(attempted.attempt, false);
    return attempted;
  }

  /** A new attempt of the rollout, which becomes `preparing`. */
  private addAttempt(rollout: Rollout, workerId: string | null, now: number): AttemptedRollout {
    const count = this.backend.countAttempts(rollout.rollout_id);
    const attempt = newAttemptRecord(rollout.rollout_id, count + 1, workerId, now);
    this.backend.insertAttempt(attempt);
    const attempted = attemptStarted(rollout, attempt);
    this.backend.putRollout(rollout);
    return attempted;
  }

  queryRollouts(query: RolloutQuery): Page<Rollout | AttemptedRollout> {
    const page = this.backend.queryRollouts(query);
    return { items: this.withLatestAttempts(page.items), total: page.total };
  }

  getRollout(rolloutId: string): Rollout | AttemptedRollout | null {
    const rollout = this.backend.getRollout(rolloutId);
    return rollout ? (this.withLatestAttempts([rollout])[0] ?? null) : null;
  }

  updateRollout(rolloutId: string, changes: Partial<Rollout>): Rollout {
    return this.applyRolloutUpdate(this.requireRollout(rolloutId), changes);
  }

  // ------------------------------------------------------------------ attempts

  queryAttempts(rolloutId: string, query: PageQuery): Page<Attempt> {
    return this.backend.queryAttempts(rolloutId, query);
  }

  getLatestAttempt(rolloutId: string): Attempt | undefined {
    return this.backend.getLatestAttempt(rolloutId);
  }

  updateAttempt(rolloutId: string, attemptId: string, changes: Partial<Attempt>): Attempt {
    const rollout = this.requireRollout(rolloutId);
    const latest = this.backend.getLatestAttempt(rolloutId);
    const attempt = targetAttempt(rolloutId, attemptId, latest, (id) =>
      this.backend.getAttempt(rolloutId, id),
    );
    const isLatest = attempt.attempt_id === latest?.attempt_id;
    return this.applyAttemptUpdate(rollout, attempt, isLatest, changes);
  }

  // ------------------------------------------------------------------ resources

  putResources(resources: NamedResources, resourcesId?: string): ResourcesUpdate {
    const target =
      resourcesId === undefined
        ? undefined
        : { resourcesId, existing: this.backend.getResources(resourcesId) };
    const update = resourcesRecord(resources, this.now(), target);
    this.backend.putResources(update);
    return update;
  }

  getResources(resourcesId: string): ResourcesUpdate | undefined {
    return this.backend.getResources(resourcesId);
  }

  getLatestResources(): ResourcesUpdate | undefined {
    return this.backend.getLatestResources();
  }

  queryResources(query: ResourcesQuery): Page<ResourcesUpdate> {
    return this.backend.queryResources(query);
  }

  // ------------------------------------------------------------------ spans

  addOtelSpan(
    rolloutId: string,
    attemptId: string,
    span: OtelSpanLike,
    sequenceId: number | null | undefined,
  ): Span | null {
    this.requireAttempt(rolloutId, attemptId);
    const seq = sequenceId ?? this.backend.allocateSequenceIds(rolloutId, 1);
    const converted = spanFromOtel(span, rolloutId, attemptId, seq);
    return this.insertSpans([converted])[0] ?? null;
  }

  allocateSequenceId(rolloutId: string): number {
    return this.backend.allocateSequenceIds(rolloutId, 1);
  }

  allocateSequenceIds(counts: Map<string, number>): Map<string, number> {
    const first = new Map<string, number>();
    for (const [id, count] of counts) first.set(id, this.backend.allocateSequenceIds(id, count));
    return first;
  }

  querySpans(query: SpanQuery): Page<Span> {
    return this.backend.querySpans(query);
  }

  // ------------------------------------------------------------------ workers

  queryWorkers(query: WorkerQuery): Page<Worker> {
    return this.backend.queryWorkers(query);
  }

  getWorker(workerId: string): Worker | undefined {
    return this.backend.getWorker(workerId);
  }

  updateWorker(workerId: string, stats: Record<string, unknown> | null | undefined): Worker {
    const worker = workerHeartbeat(this.worker(workerId), stats, this.now());
    this.backend.putWorker(worker);
    return worker;
  }

  // ------------------------------------------------------------------ record-level rules

  /** Times out or marks unresponsive the latest attempts of running rollouts (upstream's watchdog scan). */
  scanUnhealthyRollouts(now: number): void {
    const running = this.backend.rolloutsWithStatus(['preparing', 'running']);
    const latest = this.backend.latestAttempts(running.map((r) => r.rollout_id));
    for (const rollout of running) {
      const attempt = latest.get(rollout.rollout_id);
      if (!attempt) continue;
      const status = unhealthyStatus(attempt, rollout.config, now);
      if (status) this.applyAttemptUpdate(rollout, attempt, true, { status });
    }
  }

  requireRollout(rolloutId: string): Rollout {
    const rollout = this.backend.getRollout(rolloutId);
    if (!rollout) throw new NotFoundError(`rollout ${rolloutId} not found`);
    return rollout;
  }

  requireAttempt(rolloutId: string, attemptId: string): { rollout: Rollout; attempt: Attempt } {
    const rollout = this.requireRollout(rolloutId);
    const attempt = this.backend.getAttempt(rolloutId, attemptId);
    if (!attempt)
      throw new NotFoundError(`attempt ${attemptId} not found for rollout ${rolloutId}`);
    return { rollout, attempt };
  }

  worker(workerId: string): Worker {
    return this.backend.getWorker(workerId) ?? newWorker(workerId);
  }

  syncWorker(attempt: Attempt, dequeued: boolean): void {
    if (!attempt.worker_id) return;
    this.backend.putWorker(
      syncWorkerWithAttempt(this.worker(attempt.worker_id), attempt, this.now(), dequeued),
    );
  }

  /** Applies rollout field changes: end time on terminal statuses, re-enqueue on entering a queuing status. */
  applyRolloutUpdate(rollout: Rollout, changes: Partial<Rollout>): Rollout {
    const effects = applyRolloutChanges(rollout, changes, this.now());
    if (effects.finished) this.finished.push(rollout.rollout_id);
    if (effects.enqueue && !this.backend.queueHas(rollout.rollout_id)) {
      this.backend.pushQueue([rollout.rollout_id]);
    }
    this.backend.putRollout(rollout);
    return rollout;
  }

  /** Applies attempt changes, propagates the status to the rollout when latest, and syncs the worker. */
  applyAttemptUpdate(
    rollout: Rollout,
    attempt: Attempt,
    isLatest: boolean,
    changes: Partial<Attempt>,
  ): Attempt {
    const syncWorker = applyAttemptChanges(attempt, changes, this.now());
    this.backend.putAttempt(attempt);
    if (isLatest) {
      const status = rolloutStatusFromAttempt(attempt, rollout.config);
      if (status !== rollout.status) this.applyRolloutUpdate(rollout, { status });
    }
    if (syncWorker) this.syncWorker(attempt, false);
    return attempt;
  }

  /** Inserts spans (rollout and attempt must exist) and treats them as heartbeats of their attempts. */
  insertSpans(spans: Span[]): Span[] {
    const groups = new Map<string, SpanGroup>();
    let previous: SpanGroup | undefined;
    for (const span of spans) {
      // Spans of one batch usually share their attempt: the key is only built when it changes.
      if (previous?.rolloutId === span.rollout_id && previous.attemptId === span.attempt_id) {
        if (span.sequence_id > previous.maxSeq) previous.maxSeq = span.sequence_id;
        continue;
      }
      const key = `${span.rollout_id}\u0000${span.attempt_id}`;
      previous = groups.get(key);
      if (previous) previous.maxSeq = Math.max(previous.maxSeq, span.sequence_id);
      else {
        previous = {
          rolloutId: span.rollout_id,
          attemptId: span.attempt_id,
          maxSeq: span.sequence_id,
          stored: false,
        };
        groups.set(key, previous);
      }
    }
    const records = new Map<SpanGroup, { rollout: Rollout; attempt: Attempt }>();
    for (const group of groups.values())
      records.set(group, this.requireAttempt(group.rolloutId, group.attemptId));
    for (const { rolloutId, maxSeq } of groups.values())
      this.backend.raiseSequenceId(rolloutId, maxSeq);
    const inserted = this.backend.insertSpans(spans);
    const stored: Span[] = [];
    for (let i = 0; i < spans.length; i++) {
      if (!inserted[i]) continue;
      const span = spans[i]!;
      stored.push(span);
      const group =
        groups.size === 1 ? previous! : groups.get(`${span.rollout_id}\u0000${span.attempt_id}`)!;
      group.stored = true;
    }
    // Heartbeats in the order the groups first appeared; a group's rollout is re-read when an earlier
    // heartbeat of the same rollout may have changed it.
    const touched = new Set<string>();
    for (const group of groups.values()) {
      if (!group.stored) continue;
      const { rollout, attempt } = records.get(group)!;
      const fresh = touched.has(group.rolloutId);
      touched.add(group.rolloutId);
      this.onAttemptHeartbeat(
        group.rolloutId,
        group.attemptId,
        fresh ? undefined : { rollout, attempt },
      );
    }
    return stored;
  }

  /**
   * A span arrived: preparing/unresponsive attempts run again; a latest attempt's rollout starts running.
   * `records`: the rollout and attempt as read earlier in this transaction (saves reading them again).
   */
  onAttemptHeartbeat(
    rolloutId: string,
    attemptId: string,
    records?: { rollout: Rollout; attempt: Attempt },
  ): void {
    const attempt = records?.attempt ?? this.backend.getAttempt(rolloutId, attemptId)!;
    attemptHeartbeat(attempt, this.now());
    this.backend.putAttempt(attempt);
    const rollout = records?.rollout ?? this.backend.getRollout(rolloutId)!;
    const isLatest = () => this.backend.latestAttemptId(rolloutId) === attemptId;
    if (rolloutHeartbeat(rollout, isLatest)) this.backend.putRollout(rollout);
  }

  withLatestAttempts(rollouts: Rollout[]): Array<Rollout | AttemptedRollout> {
    if (rollouts.length === 0) return [];
    return withLatestAttempt(
      rollouts,
      this.backend.latestAttempts(rollouts.map((r) => r.rollout_id)),
    );
  }

  /** Moves finished rollouts into `finished` and returns the ids still pending (unknown ids are dropped, as upstream). */
  collectFinished(ids: string[], finished: Map<string, Rollout>): string[] {
    return collectFinished(ids, (id) => this.backend.getRollout(id), finished);
  }
}
