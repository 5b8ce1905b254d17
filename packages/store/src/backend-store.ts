import type { PaginatedResult, QuerySpansParams } from '@arclight/core';
import type { Awaitable, BackendCapacity, BackendCounts, Page, StoreBackend } from './backend.js';
import { BaseLightningStore, type StoreClockOptions } from './base-store.js';
import { spanQuery } from './queries.js';
import { paginated } from './record-rules.js';
import { type ArmedWait, RolloutWaiters } from './rollout-waiters.js';
import { StoreOperations } from './store-operations.js';

/**
 * A store that can answer `querySpans` with each span as the JSON text it keeps it as, so a server sends the text
 * on as it is instead of parsing and serialising every span (SQLite).
 */
export interface SpanTextSource {
  /** `querySpans`, each item a span's JSON text; null when this store keeps no such text (memory). */
  querySpanTexts(
    rolloutId: string,
    params?: QuerySpansParams,
  ): Promise<PaginatedResult<string> | null>;
}

export interface BaseStoreOptions extends StoreClockOptions {
  /** How often a waiting `waitForRollouts` re-reads the backend (other processes may write it). */
  waitPollSeconds?: number;
}

/**
 * A LightningStore over a synchronous `StoreBackend` (memory, SQLite). Every public call runs synchronously
 * inside one backend transaction, so calls are atomic and isolated from each other within a process (and, for
 * SQLite, across processes), and a call that throws changes nothing.
 */
export abstract class BackendLightningStore
  extends BaseLightningStore<StoreOperations>
  implements SpanTextSource
{
  /** Every call runs its backend transaction before it returns (see the class comment). */
  readonly appliesCallsInOrder = true;
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

  /** Returns the step's result, or with group commit (SQLite) a promise of it that settles after the commit. */
  protected override write<T>(
    scan: boolean,
    step: (ops: StoreOperations) => Awaitable<T>,
  ): Awaitable<T> {
    this.ensureOpen();
    if (scan) this.scanForUnhealthyRollouts();
    const { result, finished } = this.backend.transaction(() => {
      this.ops.finished = [];
      const value = step(this.ops) as T; // StoreOperations' steps are synchronous
      return { result: value, finished: this.ops.finished };
    });
    this.ops.finished = [];
    const pending = this.backend.pendingCommit?.();
    if (pending === undefined) {
      if (finished.length > 0) this.waiters.notify(finished);
      return result;
    }
    return pending.then(() => {
      if (finished.length > 0) this.waiters.notify(finished);
      return result;
    });
  }

  /** Like `write`: a read that saw writes of a pending group commit answers after that commit. */
  protected override read<T>(
    scan: boolean,
    step: (ops: StoreOperations) => Awaitable<T>,
  ): Awaitable<T> {
    this.ensureOpen();
    if (scan) this.scanForUnhealthyRollouts();
    // The step is handed over in a field so that a read allocates no closure beyond the caller's.
    // (Reads never nest: a step does not call the store.)
    this.readStep = step;
    const result = this.backend.snapshot(this.runReadStep) as T;
    const pending = this.backend.pendingCommit?.();
    return pending === undefined ? result : pending.then(() => result);
  }

  async querySpanTexts(
    rolloutId: string,
    params: QuerySpansParams = {},
  ): Promise<PaginatedResult<string> | null> {
    const backend = this.backend;
    if (backend.querySpanTexts === undefined) return null;
    const query = spanQuery(rolloutId, params);
    const page = await this.read(true, (ops): Page<string> => {
      if (query.attempt_id === 'latest') {
        const latest = ops.getLatestAttempt(rolloutId);
        if (latest === undefined) return { items: [], total: 0 };
        query.attempt_id = latest.attempt_id;
      }
      return backend.querySpanTexts!(query);
    });
    return paginated(page.items, page, query);
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
      // A failed group commit reaches the call that triggered the scan, which is in the same group.
      void Promise.resolve(this.write(false, (ops) => ops.scanUnhealthyRollouts(now))).catch(
        () => {},
      );
    } finally {
      this.scanning = false;
    }
  }
}
