import type { ResourcesUpdate } from '@arclight/core';
import type { UndoJournal } from './undo-journal.js';

interface ResourcesRow {
  update: ResourcesUpdate;
  /** Write rank, to break update_time ties in favour of the last write. */
  written: number;
}

/** Resources updates by id, with the latest one (greatest update_time, ties: last written) tracked. */
export class ResourcesTable {
  private readonly rows = new Map<string, ResourcesRow>();
  private latestRow: ResourcesRow | undefined;
  private writes = 0;

  constructor(private readonly journal: UndoJournal) {}

  get size(): number {
    return this.rows.size;
  }

  get(resourcesId: string): ResourcesUpdate | undefined {
    return this.rows.get(resourcesId)?.update;
  }

  latest(): ResourcesUpdate | undefined {
    return this.latestRow?.update;
  }

  /** Every update in insertion order (a replaced update keeps its position). */
  all(): ResourcesUpdate[] {
    return Array.from(this.rows.values(), (row) => row.update);
  }

  put(update: ResourcesUpdate): void {
    const id = update.resources_id;
    const old = this.rows.get(id);
    const previousLatest = this.latestRow;
    const row: ResourcesRow = { update, written: ++this.writes };
    this.rows.set(id, row);
    if (previousLatest === undefined || update.update_time >= previousLatest.update.update_time) {
      this.latestRow = row;
    } else if (previousLatest.update.resources_id === id) {
      // The latest update was rewritten with an older time: another one may be the latest now.
      this.latestRow = this.findLatest();
    }
    if (this.journal.active) {
      this.journal.record(() => {
        if (old === undefined) this.rows.delete(id);
        else this.rows.set(id, old);
        this.latestRow = previousLatest;
      });
    }
  }

  clear(): void {
    this.rows.clear();
    this.latestRow = undefined;
  }

  private findLatest(): ResourcesRow | undefined {
    let best: ResourcesRow | undefined;
    for (const row of this.rows.values()) {
      const time = row.update.update_time;
      if (
        best === undefined ||
        time > best.update.update_time ||
        (time === best.update.update_time && row.written > best.written)
      ) {
        best = row;
      }
    }
    return best;
  }
}
