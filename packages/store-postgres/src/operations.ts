import {
  type Attempt,
  type AttemptedRollout,
  type EnqueueRolloutRequest,
  FINISHED_STATUSES,
  generateAttemptId,
  generateRolloutId,
  isFinished,
  isQueuing,
  NotFoundError,
  normalizeRolloutConfig,
  type Rollout,
  type Span,
  type Worker,
} from '@arclight/core';
import {
  newWorker,
  storeParams as p,
  rolloutStatusFromAttempt,
  syncWorkerWithAttempt,
  unhealthyStatus,
} from '@arclight/store';
import type { Tables } from './tables.js';

/**
 * The record-level steps of the store semantics (the same rules as `@arclight/store`'s StoreOperations),
 * run inside one PostgreSQL transaction. Every step that changes a rollout, its attempts or spans holds the
 * rollout's row lock (taken by `lockRollout`), and workers are locked after rollouts, so concurrent
 * transactions from any number of processes apply each transition exactly once and never deadlock on
 * these rows. `finished` collects rollouts that reached a terminal status, for waking waiters after commit.
 */
export class Operations {
  finished: string[] = [];

  constructor(
    readonly tables: Tables,
    private readonly now: () => number,
  ) {}

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

  newRollout(
    request: EnqueueRolloutRequest,
    status: 'queuing' | 'preparing',
    latestResourcesId: string | null,
    label = 'rollout',
  ): Rollout {
    if (request == null || typeof request !== 'object' || !('input' in request)) {
      throw p.invalid(`${label}.input`, 'is required');
    }
    const resourcesId =
      p.optionalString(`${label}.resources_id`, request.resources_id) ?? latestResourcesId;
    return {
      rollout_id: generateRolloutId(),
      input: request.input,
      start_time: this.now(),
      end_time: null,
      mode: p.optionalOneOf(`${label}.mode`, request.mode, ['train', 'val', 'test'] as const),
      resources_id: resourcesId,
      status,
      config: normalizeRolloutConfig(request.config, `${label}.config`),
      metadata: { ...(p.optionalRecord(`${label}.metadata`, request.metadata) ?? {}) },
    };
  }

  newAttempt(rolloutId: string, sequenceId: number, workerId: string | null, now: number): Attempt {
    return {
      rollout_id: rolloutId,
      attempt_id: generateAttemptId(),
      sequence_id: sequenceId,
      start_time: now,
      end_time: null,
      status: 'preparing',
      worker_id: workerId,
      last_heartbeat_time: null,
      metadata: null,
    };
  }

  /** A new attempt of a locked rollout, which becomes `preparing`. */
  async addAttempt(
    rollout: Rollout,
    workerId: string | null,
    now: number,
  ): Promise<AttemptedRollout> {
    const count = await this.tables.countAttempts(rollout.rollout_id);
    const attempt = this.newAttempt(rollout.rollout_id, count + 1, workerId, now);
    await this.tables.insertAttempt(attempt);
    rollout.status = 'preparing';
    await this.tables.putRollout(rollout);
    return { ...rollout, attempt };
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
    Object.assign(rollout, changes);
    if (changes.status !== undefined) {
      if (FINISHED_STATUSES.includes(changes.status)) {
        rollout.end_time = this.now();
        this.finished.push(rollout.rollout_id);
      }
      if (isQueuing(changes.status) && !(await this.tables.queueHas(rollout.rollout_id))) {
        await this.tables.pushQueue([rollout.rollout_id]);
      }
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
    let syncWorker = false;
    if (changes.worker_id !== undefined) {
      attempt.worker_id = changes.worker_id;
      syncWorker = Boolean(changes.worker_id);
    }
    if (changes.status !== undefined) {
      attempt.status = changes.status;
      if (changes.status === 'failed' || changes.status === 'succeeded')
        attempt.end_time = this.now();
      syncWorker ||= Boolean(attempt.worker_id);
    }
    if (changes.last_heartbeat_time !== undefined)
      attempt.last_heartbeat_time = changes.last_heartbeat_time;
    if (changes.metadata !== undefined) attempt.metadata = changes.metadata;
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
    const pairs = new Map<string, [string, string]>();
    const highest = new Map<string, number>();
    for (const span of spans) {
      pairs.set(`${span.rollout_id}\u0000${span.attempt_id}`, [span.rollout_id, span.attempt_id]);
      highest.set(
        span.rollout_id,
        Math.max(highest.get(span.rollout_id) ?? span.sequence_id, span.sequence_id),
      );
    }
    const rollouts = new Map(
      (await this.tables.lockRollouts([...highest.keys()])).map((r) => [r.rollout_id, r]),
    );
    const attempts = new Map(
      (await this.tables.attemptsWithLatest([...pairs.values()])).map((found) => [
        `${found.attempt.rollout_id}\u0000${found.attempt.attempt_id}`,
        found,
      ]),
    );
    for (const [key, [rolloutId, attemptId]] of pairs) {
      if (!rollouts.has(rolloutId)) throw new NotFoundError(`rollout ${rolloutId} not found`);
      if (!attempts.has(key))
        throw new NotFoundError(`attempt ${attemptId} not found for rollout ${rolloutId}`);
    }
    await this.tables.raiseSequenceIds(highest);
    const inserted = await this.tables.insertSpans(spans);
    const stored = spans.filter((_, i) => inserted[i]);
    const beating = new Set(stored.map((s) => `${s.rollout_id}\u0000${s.attempt_id}`));
    const now = this.now();
    const touchedAttempts: Attempt[] = [];
    const touchedRollouts: Rollout[] = [];
    for (const key of beating) {
      const { attempt, latest } = attempts.get(key)!;
      attempt.last_heartbeat_time = now;
      if (attempt.status === 'preparing' || attempt.status === 'unresponsive')
        attempt.status = 'running';
      touchedAttempts.push(attempt);
      const rollout = rollouts.get(attempt.rollout_id)!;
      // Upstream checks ["preparing", "queueing", "requeuing"]; its "queueing" typo leaves a queuing rollout
      // alone, as the other backends do.
      if (latest && (rollout.status === 'preparing' || rollout.status === 'requeuing')) {
        rollout.status = 'running';
        touchedRollouts.push(rollout);
      }
    }
    if (touchedAttempts.length > 0) await this.tables.putAttempts(touchedAttempts);
    if (touchedRollouts.length > 0) await this.tables.putRollouts(touchedRollouts);
    return stored;
  }

  async withLatestAttempts(rollouts: Rollout[]): Promise<Array<Rollout | AttemptedRollout>> {
    if (rollouts.length === 0) return [];
    const latest = await this.tables.latestAttempts(rollouts.map((r) => r.rollout_id));
    return rollouts.map((rollout) => {
      const attempt = latest.get(rollout.rollout_id);
      return attempt ? { ...rollout, attempt } : rollout;
    });
  }

  /** Moves finished rollouts into `finished` and returns the ids still pending (unknown ids are dropped). */
  async collectFinished(ids: string[], finished: Map<string, Rollout>): Promise<string[]> {
    const found = new Map((await this.tables.getRollouts(ids)).map((r) => [r.rollout_id, r]));
    const pending: string[] = [];
    for (const id of ids) {
      const rollout = found.get(id);
      if (!rollout) continue;
      if (isFinished(rollout.status)) finished.set(id, rollout);
      else pending.push(id);
    }
    return pending;
  }
}
