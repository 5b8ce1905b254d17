import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13

export { type ChatCompletionsModelClass, observeChatRequestTools } from './chat-request-tools.js';
export {
  type AgentsInstrumentation,
  type AgentsTracingApi,
  type InstrumentOpenAIAgentsOptions,
  instrumentOpenAIAgents,
} from './install.js';
export {
  AGENT_NAME,
  AgentsAttributes,
  AgentsSpanNames,
  GEN_AI_SYSTEM_VALUE,
  GenAI,
  LlmCallSpanNames,
  TokenAttributes,
  ToolAttributes,
} from './keys.js';
export {
  DEFAULT_MAX_SPANS_IN_FLIGHT,
  DEFAULT_MAX_TRACES_IN_FLIGHT,
  type LightningTracingProcessorOptions,
  type TracerProviderSource,
} from './options.js';
export { LightningTracingProcessor } from './processor.js';
export type {
  AgentsSpanDataLike,
  AgentsSpanErrorLike,
  AgentsSpanLike,
  AgentsTraceLike,
} from './sdk-types.js';
export { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION } from './version.js';
