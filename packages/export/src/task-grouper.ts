/**
 * Bounded per-task grouping for the formats that need a task's rollouts together. Up to `maxOpen` groups are
 * kept (least recently extended first out); adding a new task beyond that flushes the oldest group. Records that
 * arrive grouped by task (as `exportFromStore` reads them) need only `maxOpen = 1`: memory is then one task's
 * rollouts. A task whose group was already flushed starts a new group.
 */
export class TaskGrouper<T> {
  private readonly open = new Map<string, T[]>();
  /** The most recently extended group (the last in `open`'s order) and its key. */
  private lastKey: string | undefined;
  private lastGroup: T[] = [];

  constructor(private readonly maxOpen: number) {
    if (!Number.isInteger(maxOpen) || maxOpen < 1) {
      throw new RangeError(`maxOpenGroups: expected a positive integer, got ${maxOpen}`);
    }
  }

  /** Adds an item; returns the groups flushed to make room (oldest first). */
  add(key: string, item: T): T[][] {
    if (key === this.lastKey) {
      // Records grouped by task extend the newest group: already last in the order, nothing to move.
      this.lastGroup.push(item);
      return [];
    }
    const group = this.open.get(key);
    if (group) {
      group.push(item);
      this.open.delete(key);
      this.open.set(key, group);
      this.lastKey = key;
      this.lastGroup = group;
      return [];
    }
    const flushed: T[][] = [];
    while (this.open.size >= this.maxOpen) {
      const oldest = this.open.keys().next().value as string;
      flushed.push(this.open.get(oldest)!);
      this.open.delete(oldest);
    }
    const created = [item];
    this.open.set(key, created);
    this.lastKey = key;
    this.lastGroup = created;
    return flushed;
  }

  /** Every group still open, oldest first. */
  drain(): T[][] {
    const groups = [...this.open.values()];
    this.open.clear();
    this.lastKey = undefined;
    this.lastGroup = [];
    return groups;
  }
}
