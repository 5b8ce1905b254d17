import type { LightningStore } from '../lightning-store.js';
import type { FakeClock } from './fake-clock.js';

/** A store implementation under test. */
export interface ConformanceTarget {
  name: string;
  /**
   * Create a fresh, empty store. `clock` returns epoch seconds and drives timestamps and the watchdog;
   * `scanDebounceSeconds` is the watchdog debounce (0 = scan before every call).
   */
  create(options: { clock: () => number; scanDebounceSeconds: number }): Promise<LightningStore>;
  /** Ids of cases this target cannot have (e.g. a remote store cannot inject a clock); each must be listed explicitly. */
  exclude?: readonly string[];
  /**
   * Whether unknown ids and bad arguments surface as `NotFoundError`/`ValidationError` (default true).
   * Remote targets may surface other error classes; messages must still name the offending id/field.
   */
  typedErrors?: boolean;
}

/** What a case gets: a fresh store, the clock driving it, and the target's error typing. */
export interface CaseContext {
  store: LightningStore;
  clock: FakeClock;
  typedErrors: boolean;
}

export interface ConformanceCase {
  /** Stable id, used by `ConformanceTarget.exclude`. */
  id: string;
  title: string;
  /** The case asserts exact clock values or needs the injected clock to drive the watchdog. */
  clock?: boolean;
  /** Watchdog debounce for this case's store (default 0). */
  scanDebounceSeconds?: number;
  /** Per-case test timeout in milliseconds. */
  timeoutMs?: number;
  run(ctx: CaseContext): Promise<void>;
}

export interface CaseGroup {
  name: string;
  cases: readonly ConformanceCase[];
}
