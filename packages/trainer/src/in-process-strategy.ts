import { ValidationError } from '@arclight/core';
import type {
  AlgorithmBundle,
  ExecutionContext,
  ExecutionStrategy,
  RunnerBundle,
} from './strategy.js';
import { linkedController, settleWithGrace } from './timing.js';

export interface InProcessStrategyOptions {
  /** Concurrent runners (async tasks sharing the store and the tracer). Default 1. */
  nRunners?: number;
  /** Seconds to wait for the algorithm and runners to finish after a stop, before abandoning them. Default 10. */
  gracefulTimeout?: number;
}

/**
 * The algorithm and `nRunners` runners as concurrent async tasks of this process, sharing one store
 * (upstream `SharedMemoryExecutionStrategy`, with tasks instead of threads). When the algorithm returns the
 * runners are stopped; a runner that throws stops everything and its error is rethrown. A bundle that ignores
 * the stop signal is abandoned after `gracefulTimeout` (JavaScript cannot cancel it).
 */
export class InProcessExecutionStrategy implements ExecutionStrategy {
  readonly nRunners: number;
  readonly gracefulTimeout: number;

  constructor(options: InProcessStrategyOptions = {}) {
    this.nRunners = checkRunnerCount(options.nRunners ?? 1);
    this.gracefulTimeout = checkTimeout('gracefulTimeout', options.gracefulTimeout ?? 10);
  }

  async execute(
    algorithm: AlgorithmBundle,
    runner: RunnerBundle,
    ctx: ExecutionContext,
  ): Promise<void> {
    const store = ctx.store();
    const stop = linkedController(ctx.signal);
    const errors: unknown[] = [];
    const fail = (error: unknown): void => {
      errors.push(error);
      stop.abort();
    };
    const runners = Array.from({ length: this.nRunners }, (_, workerId) =>
      runner(store, workerId, stop.signal).catch((error: unknown) => {
        ctx.logger.error(`[Worker-${workerId}] Runner crashed; stopping.`, error);
        fail(error);
      }),
    );
    const algorithmDone = algorithm(store, stop.signal).then(
      () => stop.abort(),
      (error: unknown) => {
        ctx.logger.error('Algorithm crashed; stopping the runners.', error);
        fail(error);
      },
    );
    if (!(await settleWithGrace(algorithmDone, stop.signal, this.gracefulTimeout))) {
      ctx.logger.warn(`The algorithm did not stop within ${this.gracefulTimeout}s; abandoning it.`);
    }
    stop.abort();
    if (!(await settleWithGrace(Promise.all(runners), stop.signal, this.gracefulTimeout))) {
      ctx.logger.warn(
        `Runners still busy ${this.gracefulTimeout}s after the stop; abandoning them.`,
      );
    }
    if (errors.length > 0) throw errors[0];
  }
}

export function checkRunnerCount(n: number): number {
  if (!Number.isInteger(n) || n < 1) {
    throw new ValidationError(`nRunners: expected a positive integer, got ${String(n)}`);
  }
  return n;
}

export function checkTimeout(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new ValidationError(
      `${name}: expected a non-negative number of seconds, got ${String(value)}`,
    );
  }
  return value;
}
