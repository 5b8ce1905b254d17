/**
 * A `Map` with a size limit: inserting beyond it evicts the oldest entries (insertion order) and hands them
 * to `onEvict`. Keeps the processor's memory bounded when the SDK starts spans it never ends.
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(
    readonly limit: number,
    private readonly onEvict: (key: K, value: V) => void = () => {},
  ) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RangeError(`limit must be a positive integer (got ${limit})`);
    }
  }

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.limit) {
      const oldest = this.map.entries().next();
      if (oldest.done) break;
      const [oldKey, oldValue] = oldest.value;
      this.map.delete(oldKey);
      this.onEvict(oldKey, oldValue);
    }
  }

  /** Removes `key` and returns its value. */
  take(key: K): V | undefined {
    const value = this.map.get(key);
    this.map.delete(key);
    return value;
  }

  /** Removes and returns every entry. */
  drain(): Array<[K, V]> {
    const entries = [...this.map.entries()];
    this.map.clear();
    return entries;
  }
}
