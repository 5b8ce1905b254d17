/** Compact the backing array once at least this many popped slots sit before the head. */
const COMPACT_MIN_HEAD = 1024;

/**
 * A FIFO queue over an array with a moving head index: push and shift are O(1) amortized (no
 * `Array.prototype.shift`); the consumed prefix is dropped once it makes up half of the array.
 * A set of the queued values answers `has` in O(1); values queued more than once also get an entry in
 * `extraCopies` (rare), so the common case costs one hash operation per push and per shift.
 */
export class FifoQueue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;
  private readonly present = new Set<T>();
  /** value → number of copies queued beyond the first. */
  private readonly extraCopies = new Map<T, number>();

  get size(): number {
    return this.items.length - this.head;
  }

  has(value: T): boolean {
    return this.present.has(value);
  }

  push(values: readonly T[]): void {
    for (const value of values) {
      this.items.push(value);
      this.added(value);
    }
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const value = this.items[this.head] as T;
    this.items[this.head] = undefined;
    this.head++;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= COMPACT_MIN_HEAD && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.removed(value);
    return value;
  }

  /** Puts a value back at the head (undoes a `shift`). */
  unshift(value: T): void {
    if (this.head > 0) this.items[--this.head] = value;
    else this.items.unshift(value);
    this.added(value);
  }

  /** Removes the `count` most recently pushed values (undoes a `push`). */
  dropTail(count: number): void {
    const end = Math.max(this.head, this.items.length - count);
    for (let i = end; i < this.items.length; i++) this.removed(this.items[i] as T);
    this.items.length = end;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
    this.present.clear();
    this.extraCopies.clear();
  }

  private added(value: T): void {
    const before = this.present.size;
    this.present.add(value);
    if (this.present.size === before) {
      this.extraCopies.set(value, (this.extraCopies.get(value) ?? 0) + 1);
    }
  }

  private removed(value: T): void {
    const extra = this.extraCopies.size > 0 ? this.extraCopies.get(value) : undefined;
    if (extra === undefined) this.present.delete(value);
    else if (extra > 1) this.extraCopies.set(value, extra - 1);
    else this.extraCopies.delete(value);
  }
}
