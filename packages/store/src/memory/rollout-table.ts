import { NotFoundError, type Rollout, type RolloutStatus, StoreError } from '@arclight/core';
import type { RolloutQuery } from '../backend.js';
import type { UndoJournal } from './undo-journal.js';

interface RolloutRow {
  rollout: Rollout;
  /** Insertion rank, to restore insertion order of candidate subsets. */
  order: number;
}

/**
 * Rollouts by id (a Map, so iteration is insertion order and replacing keeps the position) plus an index
 * of ids by status, so that status lookups (the watchdog) do not scan every rollout.
 */
export class RolloutTable {
  private readonly rows = new Map<string, RolloutRow>();
  private readonly byStatus = new Map<RolloutStatus, Set<string>>();
  private nextOrder = 0;
  private changes = 0;

  constructor(private readonly journal: UndoJournal) {}

  get size(): number {
    return this.rows.size;
  }

  /** Changes with every insert, replacement or removal (for caches of the table's sorted order). */
  get version(): number {
    return this.changes;
  }

  get(rolloutId: string): Rollout | undefined {
    return this.rows.get(rolloutId)?.rollout;
  }

  insert(rollout: Rollout): void {
    const id = rollout.rollout_id;
    if (this.rows.has(id)) throw new StoreError(`insertRollout: rollout_id "${id}" already exists`);
    this.rows.set(id, { rollout, order: this.nextOrder++ });
    this.index(id, rollout.status);
    this.changes++;
    if (this.journal.active) {
      this.journal.record(() => {
        this.rows.delete(id);
        this.unindex(id, rollout.status);
        this.changes++;
      });
    }
  }

  put(rollout: Rollout): void {
    const id = rollout.rollout_id;
    const old = this.rows.get(id);
    if (old === undefined) throw new NotFoundError(`putRollout: rollout_id "${id}" does not exist`);
    this.replace(id, old, { rollout, order: old.order });
    if (this.journal.active) {
      this.journal.record(() => this.replace(id, this.rows.get(id)!, old));
    }
  }

  /** Rollouts with one of the statuses, in insertion order. */
  withStatus(statuses: readonly RolloutStatus[]): Rollout[] {
    const ids = new Set<string>();
    for (const status of statuses) {
      for (const id of this.byStatus.get(status) ?? []) ids.add(id);
    }
    return this.inOrder(ids);
  }

  /**
   * Rollouts that may match `query`, in insertion order: the id list or the status index when the
   * query requires them (AND logic or a single condition), every rollout otherwise.
   */
  candidates(query: RolloutQuery): Iterable<Rollout> {
    const present = [query.status_in, query.rollout_id_in, query.rollout_id_contains].filter(
      (condition) => condition != null,
    ).length;
    const required = query.filter_logic === 'and' || present === 1;
    if (required && query.rollout_id_in != null) return this.inOrder(new Set(query.rollout_id_in));
    if (required && query.status_in != null) return this.withStatus(query.status_in);
    return this.all();
  }

  *all(): Iterable<Rollout> {
    for (const row of this.rows.values()) yield row.rollout;
  }

  clear(): void {
    this.rows.clear();
    this.byStatus.clear();
    this.changes++;
  }

  private inOrder(ids: Iterable<string>): Rollout[] {
    const rows: RolloutRow[] = [];
    for (const id of ids) {
      const row = this.rows.get(id);
      if (row !== undefined) rows.push(row);
    }
    rows.sort((a, b) => a.order - b.order);
    return rows.map((row) => row.rollout);
  }

  private replace(id: string, current: RolloutRow, next: RolloutRow): void {
    this.rows.set(id, next);
    this.changes++;
    if (current.rollout.status !== next.rollout.status) {
      this.unindex(id, current.rollout.status);
      this.index(id, next.rollout.status);
    }
  }

  private index(id: string, status: RolloutStatus): void {
    let ids = this.byStatus.get(status);
    if (ids === undefined) {
      ids = new Set();
      this.byStatus.set(status, ids);
    }
    ids.add(id);
  }

  private unindex(id: string, status: RolloutStatus): void {
    this.byStatus.get(status)?.delete(id);
  }
}
