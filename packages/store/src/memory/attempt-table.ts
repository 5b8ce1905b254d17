import { type Attempt, NotFoundError, StoreError } from '@arclight/core';
import type { UndoJournal } from './undo-journal.js';

interface RolloutAttempts {
  /** attempt_id → attempt, in insertion order. */
  byId: Map<string, Attempt>;
  /** The attempt with the highest sequence_id (ties: the one inserted first). */
  latestId: string;
}

/** Attempts grouped by rollout, with the latest attempt of each rollout kept up to date. */
export class AttemptTable {
  private readonly byRollout = new Map<string, RolloutAttempts>();
  private total = 0;

  constructor(private readonly journal: UndoJournal) {}

  get size(): number {
    return this.total;
  }

  get(rolloutId: string, attemptId: string): Attempt | undefined {
    return this.byRollout.get(rolloutId)?.byId.get(attemptId);
  }

  latest(rolloutId: string): Attempt | undefined {
    const group = this.byRollout.get(rolloutId);
    return group?.byId.get(group.latestId);
  }

  count(rolloutId: string): number {
    return this.byRollout.get(rolloutId)?.byId.size ?? 0;
  }

  /** The rollout's attempts in insertion order. */
  ofRollout(rolloutId: string): Iterable<Attempt> {
    return this.byRollout.get(rolloutId)?.byId.values() ?? [];
  }

  insert(attempt: Attempt): void {
    const { rollout_id: rolloutId, attempt_id: attemptId } = attempt;
    let group = this.byRollout.get(rolloutId);
    if (group?.byId.has(attemptId)) {
      throw new StoreError(
        `insertAttempt: attempt_id "${attemptId}" already exists in rollout "${rolloutId}"`,
      );
    }
    const created = group === undefined;
    const previousLatest = group?.latestId ?? attemptId;
    if (group === undefined) {
      group = { byId: new Map([[attemptId, attempt]]), latestId: attemptId };
      this.byRollout.set(rolloutId, group);
    } else {
      group.byId.set(attemptId, attempt);
      if (attempt.sequence_id > group.byId.get(group.latestId)!.sequence_id) {
        group.latestId = attemptId;
      }
    }
    this.total++;
    if (this.journal.active) {
      const inserted = group;
      this.journal.record(() => {
        this.total--;
        if (created) {
          this.byRollout.delete(rolloutId);
        } else {
          inserted.byId.delete(attemptId);
          inserted.latestId = previousLatest;
        }
      });
    }
  }

  put(attempt: Attempt): void {
    const { rollout_id: rolloutId, attempt_id: attemptId } = attempt;
    const group = this.byRollout.get(rolloutId);
    const old = group?.byId.get(attemptId);
    if (group === undefined || old === undefined) {
      throw new NotFoundError(
        `putAttempt: attempt_id "${attemptId}" does not exist in rollout "${rolloutId}"`,
      );
    }
    const previousLatest = group.latestId;
    group.byId.set(attemptId, attempt);
    if (attempt.sequence_id !== old.sequence_id) group.latestId = pickLatest(group.byId);
    if (this.journal.active) {
      this.journal.record(() => {
        group.byId.set(attemptId, old);
        group.latestId = previousLatest;
      });
    }
  }

  clear(): void {
    this.byRollout.clear();
    this.total = 0;
  }
}

function pickLatest(attempts: Map<string, Attempt>): string {
  let best: Attempt | undefined;
  for (const attempt of attempts.values()) {
    if (best === undefined || attempt.sequence_id > best.sequence_id) best = attempt;
  }
  return best!.attempt_id;
}
