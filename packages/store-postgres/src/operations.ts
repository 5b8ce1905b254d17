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
import {
  applyAttemptChanges,
  applyRolloutChanges,
  attemptHeartbeat,
  attemptKey,
  attemptStarted,
  beatingAttempts,
  collectFinished,
  type EnqueueRolloutParams,
  enqueueLabel,
  markWorkerIdleAfterEmptyDequeue,
  newAttemptRecord,
  newRolloutRecord,
  newWorker,
  type Page,
  type PageQuery,
  type ResourcesQuery,
  type RolloutQuery,
  requireSpanTargets,
  resourcesRecord,
  rolloutHeartbeat,
  rolloutStatusFromAttempt,
  type SpanQuery,
  type StartRolloutParams,
  type StoreSteps,
  spanBatchTargets,
  syncWorkerWithAttempt,
  targetAttempt,
  unhealthyStatus,
  type WorkerQuery,
  withLatestAttempt,
  workerHeartbeat,
} from '@arclight/store';
import type { Tables } from './tables.js';

/**
 * The store's `StoreSteps` in PostgreSQL (the same rules as `@arclight/store`'s StoreOperations), run inside
 * one transaction. Every step that changes a rollout, its attempts or spans holds the rollout's row lock
 * (taken by `lockRollout`), and workers are locked after rollouts, so concurrent transactions from any number
 * of processes apply each transition exactly once and never deadlock on these rows. `finished` collects
 * rollouts that reached a terminal status, for waking waiters after commit.
 */
export class Operations implements StoreSteps {
  finished: string[] = [];

  constructor(
    readonly tables: Tables,
    private readonly now: () => number,
  ) {}

  // ------------------------------------------------------------------ rollouts and the queue

  async startRollout(
    params: StartRolloutParams,
    workerId: string | null,
  ): Promise<AttemptedRollout> {
    const latest = (await this.tables.getLatestResources())?.resources_id ?? null;
    const rollout = newRolloutRecord(params, 'preparing', latest, this.now());
    const attempt = newAttemptRecord(rollout.rollout_id, 1, workerId, rollout.start_time);
    await this.tables.insertRollouts([rollout]);
    await this.tables.insertAttempt(attempt);
    if (workerId) await this.syncWorker(attempt, false);
    return { ...rollout, attempt };
  }

  async enqueueRollouts(requests: EnqueueRolloutParams[]): Promise<Rollout[]> {
    const latest = (await this.tables.getLatestResources())?.resources_id ?? null;
    const now = this.now();
    const rollouts = requests.map((request, i) =>
      newRolloutRecord(request, 'queuing', latest, now, enqueueLabel(i, requests.length)),
    );
    if (rollouts.length === 0) return rollouts;
    await this.tables.insertRollouts(rollouts);
    await this.tables.pushQueue(rollouts.map((r) => r.rollout_id));
    return rollouts;
  }

  /** Pops several queued ids per statement (`FOR UPDATE SKIP LOCKED`: concurrent dequeuers never collide). */
  async dequeueRollouts(workerId: string | null, limit: number): Promise<AttemptedRollout[]> {
    const now = this.now();
    const dequeued: AttemptedRollout[] = [];
    while (dequeued.length < limit) {
      const ids = await this.tables.popQueue(limit - dequeued.length);
      if (ids.length === 0) break;
      for (const rolloutId of ids) {
        const rollout = await this.tables.getRollout(rolloutId, true);
        // Ids whose rollout left the queuing states while queued are skipped.
        if (!rollout || !isQueuing(rollout.status)) continue;
        dequeued.push(await this.addAttempt(rollout, workerId, now));
      }
    }
    if (workerId) {
      const last = dequeued.at(-1);
      if (last) await this.syncWorker(last.attempt, true);
      else {
        const worker = await this.lockWorker(workerId);
        await this.tables.putWorker(markWorkerIdleAfterEmptyDequeue(worker, now));
      }
    }
    return dequeued;
  }

  async startAttempt(rolloutId: string, workerId: string | null): Promise<AttemptedRollout> {
    const rollout = await this.lockRollout(rolloutId);
    const attempted = await this.addAttempt(rollout, workerId, this.now());
    if (workerId) await this.syncWorker(attempted.attempt, false);
    return attempted;
  }

  async queryRollouts(query: RolloutQuery): Promise<Page<Rollout | AttemptedRollout>> {
    const page = await this.tables.queryRollouts(query);
    return { items: await this.withLatestAttempts(page.items), total: page.total };
  }

  async getRollout(rolloutId: string): Promise<Rollout | AttemptedRollout | null> {
    const rollout = await this.tables.getRollout(rolloutId);
    return rollout ? ((await this.withLatestAttempts([rollout]))[0] ?? null) : null;
  }

  async updateRollout(rolloutId: string, changes: Partial<Rollout>): Promise<Rollout> {
    return this.applyRolloutUpdate(await this.lockRollout(rolloutId), changes);
  }

  // ------------------------------------------------------------------ attempts

  queryAttempts(rolloutId: string, query: PageQuery): Promise<Page<Attempt>> {
    return this.tables.queryAttempts(rolloutId, query);
  }

  getLatestAttempt(rolloutId: string): Promise<Attempt | undefined> {
    return this.tables.getLatestAttempt(rolloutId);
  }

  async updateAttempt(
    rolloutId: string,
    attemptId: string,
    changes: Partial<Attempt>,
  ): Promise<Attempt> {
    const rollout = await this.lockRollout(rolloutId);
    const latest = await this.tables.getLatestAttempt(rolloutId);
    const named =
      attemptId === 'latest' ? undefined : await this.tables.getAttempt(rolloutId, attemptId);
    const attempt = targetAttempt(rolloutId, attemptId, latest, () => named);
    const isLatest = attempt.attempt_id === latest?.attempt_id;
    return this.applyAttemptUpdate(rollout, attempt, isLatest, changes);
  }

  // ------------------------------------------------------------------ resources

  async putResources(resources: NamedResources, resourcesId?: string): Promise<ResourcesUpdate> {
    const target =
      resourcesId === undefined
        ? undefined
        : { resourcesId, existing: await this.tables.getResources(resourcesId, true) };
    const update = resourcesRecord(resources, this.now(), target);
    await this.tables.putResources(update);
    return update;
  }

  getResources(resourcesId: string): Promise<ResourcesUpdate | undefined> {
    return this.tables.getResources(resourcesId);
  }

  getLatestResources(): Promise<ResourcesUpdate | undefined> {
    return this.tables.getLatestResources();
  }

  queryResources(query: ResourcesQuery): Promise<Page<ResourcesUpdate>> {
    return this.tables.queryResources(query);
  }

  // ------------------------------------------------------------------ spans

  async addOtelSpan(
    rolloutId: string,
    attemptId: string,
    span: OtelSpanLike,
    sequenceId: number | null | undefined,
  ): Promise<Span | null> {
    await this.lockRollout(rolloutId);
    const seq = sequenceId ?? (await this.tables.allocateSequenceIds(rolloutId, 1));
    const converted = spanFromOtel(span, rolloutId, attemptId, seq);
    return (await this.insertSpans([converted]))[0] ?? null;
  }

  allocateSequenceId(rolloutId: string): Promise<number> {
    return this.tables.allocateSequenceIds(rolloutId, 1);
  }

  async allocateSequenceIds(counts: Map<string, number>): Promise<Map<string, number>> {
    const first = new Map<string, number>();
    // Counter rows are locked in id order, so two batches over the same rollouts never deadlock.
    for (const id of [...counts.keys()].sort())
      first.set(id, await this.tables.allocateSequenceIds(id, counts.get(id)!));
    return first;
  }

  querySpans(query: SpanQuery): Promise<Page<Span>> {
    return this.tables.querySpans(query);
  }

  // ------------------------------------------------------------------ workers

  queryWorkers(query: WorkerQuery): Promise<Page<Worker>> {
    return this.tables.queryWorkers(query);
  }

  getWorker(workerId: string): Promise<Worker | undefined> {
    return this.tables.getWorker(workerId);
  }

  async updateWorker(
    workerId: string,
    stats: Record<string, unknown> | null | undefined,
  ): Promise<Worker> {
    const worker = workerHeartbeat(await this.lockWorker(workerId), stats, this.now());
    await this.tables.putWorker(worker);
    return worker;
  }

  // ------------------------------------------------------------------ record-level rules

  /** Times out or marks unresponsive the latest attempts of running rollouts (rows others hold are left to them). */
  async scanUnhealthyRollouts(now: number): Promise<void> {
    const running = await this.tables.lockRolloutsWithStatus(['preparing', 'running']);
    const latest = await this.tables.latestAttempts(running.map((r) => r.rollout_id));
    for (const rollout of running) {
      const attempt = latest.get(rollout.rollout_id);
      if (!attempt) continue;
      const status = unhealthyStatus(attempt, rollout.config, now);
      if (status) await this.applyAttemptUpdate(rollout, attempt, true, { status });
    }
  }

  /** A new attempt of a locked rollout, which becomes `preparing`. */
  async addAttempt(
    rollout: Rollout,
    workerId: string | null,
    now: number,
  ): Promise<AttemptedRollout> {
    const count = await this.tables.countAttempts(rollout.rollout_id);
    const attempt = newAttemptRecord(rollout.rollout_id, count + 1, workerId, now);
    await this.tables.insertAttempt(attempt);
    const attempted = attemptStarted(rollout, attempt);
    await this.tables.putRollout(rollout);
    return attempted;
  }

  /** The rollout, locked until the transaction ends. */
  async lockRollout(rolloutId: string): Promise<Rollout> {
    const rollout = await this.tables.getRollout(rolloutId, true);
    if (!rollout) throw new NotFoundError(`rollout ${rolloutId} not found`);
    return rollout;
  }

  /** The worker row, locked (created as `unknown` when new). */
  lockWorker(workerId: string): Promise<Worker> {
    return this.tables.lockWorker(newWorker(workerId));
  }

  async syncWorker(attempt: Attempt, dequeued: boolean): Promise<void> {
    if (!attempt.worker_id) return;
    const worker = await this.lockWorker(attempt.worker_id);
    await this.tables.putWorker(syncWorkerWithAttempt(worker, attempt, this.now(), dequeued));
  }

  /** Applies rollout field changes: end time on terminal statuses, re-enqueue on entering a queuing status. */
  async applyRolloutUpdate(rollout: Rollout, changes: Partial<Rollout>): Promise<Rollout> {
    const effects = applyRolloutChanges(rollout, changes, this.now());
    if (effects.finished) this.finished.push(rollout.rollout_id);
    if (effects.enqueue && !(await this.tables.queueHas(rollout.rollout_id))) {
      await this.tables.pushQueue([rollout.rollout_id]);
    }
    await this.tables.putRollout(rollout);
    return rollout;
  }

  /** Applies attempt changes, propagates the status to the rollout when latest, and syncs the worker. */
  async applyAttemptUpdate(
    rollout: Rollout,
    attempt: Attempt,
    isLatest: boolean,
    changes: Partial<Attempt>,
  ): Promise<Attempt> {
    const syncWorker = applyAttemptChanges(attempt, changes, this.now());
    await this.tables.putAttempt(attempt);
    if (isLatest) {
      const status = rolloutStatusFromAttempt(attempt, rollout.config);
      if (status !== rollout.status) await this.applyRolloutUpdate(rollout, { status });
    }
    if (syncWorker) await this.syncWorker(attempt, false);
    return attempt;
  }

  /**
   * Inserts spans (rollouts and attempts must exist) and treats them as heartbeats of their attempts:
   * preparing/unresponsive attempts run again and the rollout of a latest attempt starts running.
   * A fixed number of statements whatever the batch size, under the rollouts' row locks.
   */
  async insertSpans(spans: Span[]): Promise<Span[]> {
    const { attempts: targets, highestSequenceIds } = spanBatchTargets(spans);
    const rollouts = new Map(
      (await this.tables.lockRollouts([...highestSequenceIds.keys()])).map((r) => [
        r.rollout_id,
        r,
      ]),
    );
    const attempts = new Map(
      (
        await this.tables.attemptsWithLatest(
          [...targets.values()].map(({ rolloutId, attemptId }) => [rolloutId, attemptId]),
        )
      ).map((found) => [attemptKey(found.attempt.rollout_id, found.attempt.attempt_id), found]),
    );
    requireSpanTargets(
      targets,
      (rolloutId) => rollouts.has(rolloutId),
      (key) => attempts.has(key),
    );
    await this.tables.raiseSequenceIds(highestSequenceIds);
    const inserted = await this.tables.insertSpans(spans);
    const stored = spans.filter((_, i) => inserted[i]);
    const now = this.now();
    const touchedAttempts: Attempt[] = [];
    const touchedRollouts: Rollout[] = [];
    for (const key of beatingAttempts(stored)) {
      const { attempt, latest } = attempts.get(key)!;
      attemptHeartbeat(attempt, now);
      touchedAttempts.push(attempt);
      const rollout = rollouts.get(attempt.rollout_id)!;
      if (rolloutHeartbeat(rollout, () => latest)) touchedRollouts.push(rollout);
    }
    if (touchedAttempts.length > 0) await this.tables.putAttempts(touchedAttempts);
    if (touchedRollouts.length > 0) await this.tables.putRollouts(touchedRollouts);
    return stored;
  }

  async withLatestAttempts(rollouts: Rollout[]): Promise<Array<Rollout | AttemptedRollout>> {
    if (rollouts.length === 0) return [];
    return withLatestAttempt(
      rollouts,
      await this.tables.latestAttempts(rollouts.map((r) => r.rollout_id)),
    );
  }

  /** Moves finished rollouts into `finished` and returns the ids still pending (unknown ids are dropped). */
  async collectFinished(ids: string[], finished: Map<string, Rollout>): Promise<string[]> {
    const found = new Map((await this.tables.getRollouts(ids)).map((r) => [r.rollout_id, r]));
    return collectFinished(ids, (id) => found.get(id), finished);
  }
}
