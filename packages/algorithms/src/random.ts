import { ValidationError } from '@arclight/core';

/**
 * A small seeded pseudo-random generator (mulberry32) with the helpers algorithms need — Python's
 * `random.choice`, `random.sample` and `random.shuffle` — so runs with the same seed make the same choices.
 */
export class SeededRandom {
  private state: number;

  /** `seed`: any integer; omitted → a random seed. */
  constructor(seed?: number) {
    if (seed !== undefined && !Number.isInteger(seed)) {
      throw new ValidationError(`seed: expected an integer, got ${String(seed)}`);
    }
    this.state = (seed ?? Math.floor(Math.random() * 2 ** 32)) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  choice<T>(items: readonly T[]): T {
    if (items.length === 0) throw new ValidationError('choice: the list is empty');
    return items[this.int(items.length)]!;
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** `k` distinct items in random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    if (k > items.length) {
      throw new ValidationError(`sample: cannot take ${k} items from a list of ${items.length}`);
    }
    return this.shuffle(items).slice(0, k);
  }
}
