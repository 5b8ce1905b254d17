import {
  type Algorithm,
  type Logger,
  resolveLogger,
  type TraceAdapter,
  ValidationError,
} from '@arclight/core';
import { type Hook, type LitAgent, Runner } from '@arclight/runner';
import { type LightningStore, SqliteLightningStore } from '@arclight/store';
import { ClientServerExecutionStrategy } from './client-server-strategy.js';
import { DevBaseline } from './dev-baseline.js';
import { ENV, spawnedWorkerId } from './env.js';
import { InProcessExecutionStrategy } from './in-process-strategy.js';
import { installInterruptHandler } from './interrupts.js';
import { runSpawnedWorker } from './spawned-worker.js';
import type { AlgorithmBundle, ExecutionStrategy, RunnerBundle } from './strategy.js';
import { aborted, linkedController } from './timing.js';
import { TracerPool } from './tracer-pool.js';
import { runWithGateway } from './trainer-gateway.js';
import type {
  DevOptions,
  FitOptions,
  TrainerOptions,
  TrainerRunnerOptions,
} from './trainer-options.js';

/** The default store file of a trainer, relative to the working directory. */
export const DEFAULT_STORE_PATH = './arclight.sqlite';

/**
 * Trains an agent (upstream `Trainer`): runs the algorithm and `nRunners` runners through an execution
 * strategy — concurrent tasks of this process (`'in-process'`) or runner processes talking HTTP to a store
 * server (`'client-server'`). See the package README.
 */
export class Trainer<T = unknown> {
  readonly nRunners: number;
  readonly maxRollouts: number | null;
  readonly strategy: ExecutionStrategy;
  readonly algorithm: Algorithm<T> | null;
  readonly initialResources: TrainerOptions<T>['initialResources'];
  readonly adapter: TraceAdapter | undefined;
  readonly hooks: readonly Hook[];
  private readonly logger: Logger;
  private readonly runnerOptions: TrainerRunnerOptions;
  private readonly handleSignals: boolean;
  private readonly storeSpec: TrainerOptions<T>['store'];
  private storeValue: LightningStore | null = null;
  private readonly tracers: TracerPool;
  private readonly gatewayOptions: TrainerOptions<T>['gateway'];

  constructor(options: TrainerOptions<T> = {}) {
    this.logger = resolveLogger(options.logger);
    this.strategy = makeStrategy(options);
    this.nRunners = this.strategy.nRunners;
    this.maxRollouts = options.maxRollouts ?? null;
    this.algorithm = options.algorithm ?? null;
    this.initialResources = options.initialResources;
    this.adapter = options.adapter;
    const hooks = options.hooks ?? [];
    this.hooks = Array.isArray(hooks) ? [...hooks] : [hooks as Hook];
    this.runnerOptions = options.runner ?? {};
    this.handleSignals = options.handleSignals ?? true;
    this.storeSpec = options.store;
    this.tracers = new TracerPool(options.tracer);
    this.gatewayOptions = options.gateway;
  }

  /** The trainer's store (created on first use when not given: `./arclight.sqlite`). */
  get store(): LightningStore {
    if (!this.storeValue) {
      const spec = this.storeSpec;
      this.storeValue =
        typeof spec === 'function'
          ? spec()
          : (spec ?? new SqliteLightningStore({ path: DEFAULT_STORE_PATH }));
    }
    return this.storeValue;
  }

  /**
   * Trains: runs the algorithm with the datasets and the runners with `agent` until the algorithm returns
   * (then the runners are stopped), or until stopped (Ctrl+C, `signal`). Without an algorithm the runners run
   * until stopped. In a runner process started by the client-server strategy this call runs one runner and
   * exits the process instead of returning.
   */
  fit(agent: LitAgent<T>, options: FitOptions<T> = {}): Promise<void> {
    return this.execute(
      agent,
      this.algorithm,
      options.trainDataset,
      options.valDataset,
      options.signal,
    );
  }

  /**
   * A quick dry run (upstream `Trainer.dev`): like `fit`, with a fast algorithm — the trainer's algorithm if it
   * is marked `fast`, else a `DevBaseline` that runs every task once and reports its reward.
   */
  async dev(agent: LitAgent<T>, options: DevOptions<T> = {}): Promise<void> {
    const algorithm = this.algorithm ?? (new DevBaseline() as Algorithm<T>);
    if (algorithm.fast !== true) {
      throw new ValidationError(
        `Trainer.dev() needs a fast algorithm (one with \`fast: true\`, e.g. DevBaseline); ` +
          `got ${algorithm.constructor?.name ?? 'an algorithm'} without it`,
      );
    }
    return this.execute(agent, algorithm, options.devDataset, options.valDataset, options.signal);
  }

  private async execute(
    agent: LitAgent<T>,
    algorithm: Algorithm<T> | null,
    trainDataset: readonly T[] | undefined,
    valDataset: readonly T[] | undefined,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const runnerBundle = this.runnerBundle(agent);
    const workerId = spawnedWorkerId();
    if (workerId !== null) {
      const clientOptions =
        this.strategy instanceof ClientServerExecutionStrategy ? this.strategy.clientOptions : {};
      return runSpawnedWorker(workerId, runnerBundle, this.logger, clientOptions);
    }
    const algorithmBundle: AlgorithmBundle = async (store, stop) => {
      if (!algorithm) return aborted(stop);
      await runWithGateway(this.gatewayOptions, store, this.initialResources, (initialResources) =>
        algorithm.run({
          store,
          trainDataset,
          valDataset,
          initialResources,
          adapter: this.adapter,
          signal: stop,
        }),
      );
    };
    const interrupt = this.handleSignals ? installInterruptHandler(this.logger) : null;
    const stop = linkedController(signal, interrupt?.signal);
    try {
      await this.strategy.execute(algorithmBundle, runnerBundle, {
        store: () => this.store,
        signal: stop.signal,
        logger: this.logger,
      });
    } finally {
      interrupt?.dispose();
    }
  }

  private runnerBundle(agent: LitAgent<T>): RunnerBundle {
    return async (store, workerId, stop) => {
      const tracer = this.tracers.acquire(store);
      const runner = new Runner<T>({
        logger: this.logger,
        ...this.runnerOptions,
        agent,
        store,
        tracer,
        workerId,
        maxRollouts: this.maxRollouts,
        hooks: this.hooks,
      });
      try {
        await runner.iter({ signal: stop });
      } finally {
        await runner.close();
        await this.tracers.release(store);
      }
    };
  }
}

function makeStrategy<T>(options: TrainerOptions<T>): ExecutionStrategy {
  const spec = options.strategy ?? (process.env[ENV.ROLE] ? 'client-server' : 'in-process');
  if (typeof spec === 'object') {
    if (options.port !== undefined && spec instanceof ClientServerExecutionStrategy) {
      spec.serverPort = options.port;
    }
    return spec;
  }
  if (spec === 'in-process') return new InProcessExecutionStrategy({ nRunners: options.nRunners });
  if (spec === 'client-server') {
    return new ClientServerExecutionStrategy({
      nRunners: options.nRunners,
      serverPort: options.port,
    });
  }
  throw new ValidationError(
    `strategy: expected "in-process", "client-server" or an ExecutionStrategy, got ${JSON.stringify(spec)}`,
  );
}
