import type { NamedResources } from '../types/resources.js';
import type { TraceAdapter } from './adapter.js';
import type { LightningStore } from './lightning-store.js';

/** A dataset: the task inputs, in order (upstream `Dataset`: anything with `len` and indexing). */
export type Dataset<T = unknown> = readonly T[];

/** What `Algorithm.run` receives (upstream: `set_store`, `set_adapter`, `set_initial_resources`, `run(...)`). */
export interface AlgorithmContext<T = unknown> {
  /** The store runners take rollouts from (the in-process store; in client-server mode the served one). */
  store: LightningStore;
  trainDataset?: Dataset<T>;
  valDataset?: Dataset<T>;
  /** The trainer's `initialResources`; algorithms decide how to store them (e.g. `updateResources`). */
  initialResources?: NamedResources;
  adapter?: TraceAdapter;
  /** Aborts when training is being stopped (Ctrl+C, `fit({ signal })`, a crashed runner). */
  signal: AbortSignal;
}

/**
 * An algorithm drives training through the store: it publishes resources, enqueues rollouts, waits for them
 * and learns from their spans. `Trainer.fit` (`@arclight/trainer`) runs it next to the runners; `fit` returns
 * when `run` resolves. Implementations: `@arclight/algorithms`.
 */
export interface Algorithm<T = unknown> {
  run(ctx: AlgorithmContext<T>): Promise<void>;
  /** Marks algorithms that `Trainer.dev()` accepts (upstream `FastAlgorithm`). */
  readonly fast?: boolean;
}
