import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13

export {
  ClientServerExecutionStrategy,
  type ClientServerStrategyOptions,
} from './client-server-strategy.js';
export { DevBaseline, type DevBaselineOptions, type DevRolloutResult } from './dev-baseline.js';
export {
  DEFAULT_SERVER_HOST,
  DEFAULT_SERVER_PORT,
  ENV,
  isRunnerProcess,
  type Role,
  resolveRole,
} from './env.js';
export {
  InProcessExecutionStrategy,
  type InProcessStrategyOptions,
} from './in-process-strategy.js';
export type { RunnerExit } from './runner-processes.js';
export type {
  AlgorithmBundle,
  ExecutionContext,
  ExecutionStrategy,
  RunnerBundle,
} from './strategy.js';
export { DEFAULT_STORE_PATH, Trainer } from './trainer.js';
export { runWithGateway, type TrainerGatewayOptions } from './trainer-gateway.js';
export type {
  DevOptions,
  FitOptions,
  TrainerOptions,
  TrainerRunnerOptions,
} from './trainer-options.js';
