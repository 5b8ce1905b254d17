/** Compact the backing array once at least this many popped slots sit before the head. */
const COMPACT_MIN_HEAD = 1024;

/**
 * A FIFO queue over an array with a moving head index: push and shift are O(1) amortized (no
 * `Array.prototype.shift`); the consumed prefix is dropped once it makes up half of the array.
 */
export class FifoQueue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(values: readonly T[]): void {
    for (const value of values) this.items.push(value);
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const value = this.items[this.head];
    this.items[this.head] = undefined;
    this.head++;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head >= COMPACT_MIN_HEAD && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return value;
  }

  /** Puts a value back at the head (undoes a `shift`). */
  unshift(value: T): void {
    if (this.head > 0) this.items[--this.head] = value;
    else this.items.unshift(value);
  }

  /** Removes the `count` most recently pushed values (undoes a `push`). */
  dropTail(count: number): void {
    this.items.length = Math.max(this.head, this.items.length - count);
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
