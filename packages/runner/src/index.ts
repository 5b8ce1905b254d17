import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13

export { type AttemptErrorInfo, describeError } from './error-info.js';
export {
  type FunctionalAgentOptions,
  FunctionalLitAgent,
  type LlmRolloutFunction,
  llmRollout,
  type PromptRolloutFunction,
  promptRollout,
  type RolloutContext,
  type RolloutFunction,
  rollout,
} from './functional-agent.js';
export { type HeartbeatOptions, startHeartbeat } from './heartbeat.js';
export type {
  Hook,
  HookName,
  HookRunner,
  RolloutEndHookContext,
  RolloutHookContext,
  TraceHookContext,
} from './hooks.js';
export { type AgentRunnerRef, LitAgent } from './lit-agent.js';
export { consoleLogger, type RunnerLogger, resolveLogger, silentLogger } from './logger.js';
export { type PostProcessContext, postProcessRolloutResult } from './post-process.js';
export { selectLlm, selectPromptTemplate } from './resource-selection.js';
export {
  type RecordContext,
  type RecordOptions,
  type RewardCarrier,
  RolloutRecorder,
  type RolloutRecorderOptions,
} from './rollout-recorder.js';
export {
  classifySpanList,
  isArclightSpan,
  isOtelSpanLike,
  isSpanCoreFields,
  type RolloutRawResult,
  type SpanListKind,
} from './rollout-result.js';
export { type IterOptions, Runner, type StepOptions } from './runner.js';
export { formatWorkerId, type RunnerOptions } from './runner-options.js';
export { type RunnerTracer, traceAttempt } from './runner-tracer.js';
export { interruptibleSleep, jittered } from './sleep.js';
export { localIsoSeconds, type SystemSnapshot, systemSnapshot } from './system-snapshot.js';
