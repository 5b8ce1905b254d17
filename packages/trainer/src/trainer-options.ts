import type { Algorithm, Logger, NamedResources, TraceAdapter } from '@arclight/core';
import type { Hook, RunnerOptions, RunnerTracer } from '@arclight/runner';
import type { LightningStore } from '@arclight/store';
import type { ExecutionStrategy } from './strategy.js';
import type { TrainerGatewayOptions } from './trainer-gateway.js';

/** Runner settings a trainer passes to each of its runners. */
export type TrainerRunnerOptions = Pick<
  RunnerOptions,
  'pollInterval' | 'heartbeatInterval' | 'intervalJitter' | 'heartbeatStats' | 'logger'
>;

export interface TrainerOptions<T = unknown> {
  /** Runners (in-process tasks, or runner processes). Default 1; an `ExecutionStrategy` instance decides itself. */
  nRunners?: number;
  /** Each runner stops after this many rollouts. Default: no limit. */
  maxRollouts?: number | null;
  /** Handed to the algorithm (`AlgorithmContext.initialResources`). */
  initialResources?: NamedResources;
  /**
   * The runners' tracer: an instance (used as is, in this process), or a factory called once per process with
   * the store runners use there (e.g. a `LightningStoreClient` in runner processes). Default: a
   * `LightningTracer` on that store.
   */
  tracer?: RunnerTracer | ((store: LightningStore) => RunnerTracer);
  /** Handed to the algorithm (`AlgorithmContext.adapter`). */
  adapter?: TraceAdapter;
  /**
   * The store, or a factory (called on first use, only where the store lives). Default: a
   * `SqliteLightningStore` on `./arclight.sqlite` (relative to the working directory).
   */
  store?: LightningStore | (() => LightningStore);
  /** Without an algorithm, `fit` runs the runners until stopped (enqueue rollouts yourself). */
  algorithm?: Algorithm<T>;
  hooks?: Hook | readonly Hook[];
  /**
   * `'in-process'` (default; `'client-server'` when `ARCLIGHT_ROLE` is set), `'client-server'`, or an
   * `ExecutionStrategy` instance (e.g. `new ClientServerExecutionStrategy({ ... })` for its options).
   */
  strategy?: 'in-process' | 'client-server' | ExecutionStrategy;
  /** Store server port of the client-server strategy (default `ARCLIGHT_SERVER_PORT`, else 4747). */
  port?: number;
  /** Settings of every runner (poll/heartbeat intervals, jitter, runner logger). */
  runner?: TrainerRunnerOptions;
  /** Trainer messages (warnings, errors, stop escalation). Default: the console; `null` silences. */
  logger?: Logger | null;
  /** Stop gracefully on Ctrl+C (SIGINT) during `fit`/`dev`; a second Ctrl+C exits. Default true. */
  handleSignals?: boolean;
  /**
   * Start an LLM gateway (`@arclight/gateway`) next to the algorithm, recording into its store, and add its
   * `ProxyLLM` to the initial resources (as `llm`, or `gateway.resourceName`).
   */
  gateway?: TrainerGatewayOptions;
}

export interface FitOptions<T = unknown> {
  trainDataset?: readonly T[];
  valDataset?: readonly T[];
  /** Stops training gracefully when aborted. */
  signal?: AbortSignal;
}

export interface DevOptions<T = unknown> {
  /** The tasks of the dry run (run in `train` mode). */
  devDataset?: readonly T[];
  /** Further tasks, run in `val` mode. */
  valDataset?: readonly T[];
  signal?: AbortSignal;
}
