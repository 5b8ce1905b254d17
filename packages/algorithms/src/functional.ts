import { type Algorithm, type AlgorithmContext, ValidationError } from '@arclight/core';

/** The body of a functional algorithm: receives everything the trainer provides, in one object. */
export type AlgorithmFunction<T = unknown> = (ctx: AlgorithmContext<T>) => Promise<void> | void;

export interface AlgoOptions {
  /** Accept it in `Trainer.dev()` (upstream `FastAlgorithm`). Default false. */
  fast?: boolean;
}

/** An algorithm made from a function (upstream `FunctionalAlgorithm`); built by {@link algo}. */
export class FunctionalAlgorithm<T = unknown> implements Algorithm<T> {
  readonly fast: boolean;

  constructor(
    readonly fn: AlgorithmFunction<T>,
    options: AlgoOptions = {},
  ) {
    if (typeof fn !== 'function') {
      throw new ValidationError(`algo: expected a function, got ${typeof fn}`);
    }
    this.fast = options.fast ?? false;
  }

  /** The function's name (e.g. for logs). */
  get name(): string {
    return this.fn.name || 'anonymous';
  }

  async run(ctx: AlgorithmContext<T>): Promise<void> {
    await this.fn(ctx);
  }
}

/**
 * Turns a function into an `Algorithm` (upstream `@algo`):
 *
 * ```ts
 * const myAlgorithm = algo(async ({ store, trainDataset, initialResources, signal }) => { ... });
 * await new Trainer({ algorithm: myAlgorithm, nRunners: 4 }).fit(agent, { trainDataset });
 * ```
 *
 * Upstream injects `store`, `train_dataset`, `val_dataset`, `llm_proxy`, `adapter` and `initial_resources` by
 * parameter name; TypeScript cannot see parameter names, so the function gets one context object and
 * destructures what it needs (`store`, `trainDataset`, `valDataset`, `initialResources`, `adapter`, `signal`).
 */
export function algo<T = unknown>(
  fn: AlgorithmFunction<T>,
  options: AlgoOptions = {},
): FunctionalAlgorithm<T> {
  return new FunctionalAlgorithm(fn, options);
}
