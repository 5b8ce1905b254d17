import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13

export { APO } from './apo/apo.js';
export type { APOEvent, APOPromptScore, APORound } from './apo/events.js';
export { type RolloutResultForAPO, renderExperiments } from './apo/experiments.js';
export type { APOOptions, ResolvedAPOOptions } from './apo/options.js';
export {
  DEFAULT_APPLY_EDIT_PROMPT_FILES,
  DEFAULT_GRADIENT_PROMPT_FILES,
  fillPlaceholders,
  PROMPTS_DIR,
  type PromptMessage,
  parsePromptFile,
  renderPromptFile,
} from './apo/prompt-files.js';
export { unwrapCodeFence } from './apo/textual-gradient.js';
export {
  Baseline,
  type BaselineOptions,
  type BaselineResult,
  type SpanVerbosity,
} from './baseline.js';
export { batchIterOverDataset } from './batches.js';
export {
  type AlgoOptions,
  type AlgorithmFunction,
  algo,
  FunctionalAlgorithm,
} from './functional.js';
export { SeededRandom } from './random.js';
export {
  AlgorithmStopped,
  latestAttemptSpans,
  type WaitOptions,
  waitForFinished,
} from './rollout-batch.js';
