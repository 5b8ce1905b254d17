import type { Logger } from '@arclight/core';
import type { LightningStore } from '@arclight/store';

/** Runs the algorithm against `store` until done or `signal` aborts (upstream `AlgorithmBundle`). */
export type AlgorithmBundle = (store: LightningStore, signal: AbortSignal) => Promise<void>;

/** Runs one runner (`workerId` ≥ 0) against `store` until `signal` aborts (upstream `RunnerBundle`). */
export type RunnerBundle = (
  store: LightningStore,
  workerId: number,
  signal: AbortSignal,
) => Promise<void>;

export interface ExecutionContext {
  /** The trainer's store; only called where the store lives (not in remote runner processes). */
  store: () => LightningStore;
  /** External stop request (Ctrl+C, `fit({ signal })`). */
  signal: AbortSignal;
  logger: Logger;
}

/** How the algorithm and the runners are laid out over tasks and processes (upstream `ExecutionStrategy`). */
export interface ExecutionStrategy {
  readonly nRunners: number;
  execute(algorithm: AlgorithmBundle, runner: RunnerBundle, ctx: ExecutionContext): Promise<void>;
}
