import {
  type Attempt,
  type AttemptedRollout,
  NotFoundError,
  type Rollout,
  type Span,
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
  newAttemptRecord,
  newWorker,
  requireSpanTargets,
  rolloutHeartbeat,
  rolloutStatusFromAttempt,
  spanBatchTargets,
  syncWorkerWithAttempt,
  unhealthyStatus,
  withLatestAttempt,
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
      if (rolloutHeartbeat(rollout, latest)) touchedRollouts.push(rollout);
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
