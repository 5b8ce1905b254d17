import type { BackendCapacity, BackendCounts, StoreBackend } from './backend.js';
import { BaseLightningStore, type StoreClockOptions } from './base-store.js';
import { type ArmedWait, RolloutWaiters } from './rollout-waiters.js';
import { StoreOperations } from './store-operations.js';

export interface BaseStoreOptions extends StoreClockOptions {
  /** How often a waiting `waitForRollouts` re-reads the backend (other processes may write it). */
  waitPollSeconds?: number;
}

/**
 * A LightningStore over a synchronous `StoreBackend` (memory, SQLite). Every public call runs synchronously
 * inside one backend transaction, so calls are atomic and isolated from each other within a process (and, for
 * SQLite, across processes), and a call that throws changes nothing.
 */
export abstract class BackendLightningStore extends BaseLightningStore<StoreOperations> {
  protected readonly backend: StoreBackend;
  private scanning = false;
  private readonly waiters: RolloutWaiters;
  private readonly ops: StoreOperations;

  protected constructor(backend: StoreBackend, options: BaseStoreOptions = {}) {
    super(options);
    this.backend = backend;
    this.waiters = new RolloutWaiters((options.waitPollSeconds ?? 0.05) * 1000);
    this.ops = new StoreOperations(backend, this.now);
  }

  protected override write<T>(scan: boolean, step: (ops: StoreOperations) => T): T {
    this.ensureOpen();
    if (scan) this.scanForUnhealthyRollouts();
    const { result, finished } = this.backend.transaction(() => {
      this.ops.finished = [];
      const value = step(this.ops);
      return { result: value, finished: this.ops.finished };
    });
    this.ops.finished = [];
    if (finished.length > 0) this.waiters.notify(finished);
    return result;
  }

  protected override read<T>(scan: boolean, step: (ops: StoreOperations) => T): T {
    this.ensureOpen();
    if (scan) this.scanForUnhealthyRollouts();
    // The step is handed over in a field so that a read allocates no closure beyond the caller's.
    // (Reads never nest: a step does not call the store.)
    this.readStep = step;
    return this.backend.snapshot(this.runReadStep) as T;
  }

  private readStep: ((ops: StoreOperations) => unknown) | undefined;
  private readonly runReadStep = (): unknown => this.readStep!(this.ops);

  protected override counts(): BackendCounts {
    return this.backend.counts();
  }

  protected override capacity(): BackendCapacity | undefined {
    return this.backend.capacity?.();
  }

  protected override release(): void {
    this.waiters.close();
    this.backend.close();
  }

  protected override armWait(rolloutIds: readonly string[]): ArmedWait {
    return this.waiters.arm(rolloutIds);
  }

  /** The lazy, debounced watchdog: times out and marks unresponsive the latest attempts of running rollouts. */
  private scanForUnhealthyRollouts(): void {
    if (this.scanning) return;
    const now = this.now();
    if (!this.scanDue(now)) return;
    this.scanStarted(now);
    this.scanning = true;
    try {
      this.write(false, (ops) => ops.scanUnhealthyRollouts(now));
    } finally {
      this.scanning = false;
    }
  }
}
