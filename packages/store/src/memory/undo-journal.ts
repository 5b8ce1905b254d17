import { StoreError } from '@arclight/core';

/**
 * Undo log behind `MemoryBackend.transaction`. While a transaction is open, every mutating method records
 * a closure that reverts its write; when the transaction's callback throws, the closures run newest-first,
 * which brings every structure back to exactly the state it had when the callback started.
 *
 * Nested `run` calls join the outer transaction (their writes commit only with it) and act as savepoints:
 * when an inner callback throws, only the writes made inside it are reverted before the error propagates.
 */
export class UndoJournal {
  private entries: Array<() => void> | null = null;

  /** True while a transaction is open; mutators record undo closures only then. */
  get active(): boolean {
    return this.entries !== null;
  }

  record(undo: () => void): void {
    this.entries?.push(undo);
  }

  run<T>(fn: () => T): T {
    const outermost = this.entries === null;
    const entries = this.entries ?? [];
    this.entries = entries;
    const mark = entries.length;
    try {
      const result = fn();
      if (isThenable(result)) {
        throw new StoreError(
          'transaction: the callback returned a promise; transactions are synchronous',
        );
      }
      return result;
    } catch (error) {
      for (let i = entries.length - 1; i >= mark; i--) entries[i]!();
      entries.length = mark;
      throw error;
    } finally {
      if (outermost) this.entries = null;
    }
  }
}

function isThenable(value: unknown): boolean {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
