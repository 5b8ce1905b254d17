import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13

export {
  GenAI,
  HIDDEN_TAG,
  LangChainAttributes,
  OPENAI_SYSTEM,
  SpanNames,
  TokenAttributes,
} from './attributes/keys.js';
export { installContextBridge } from './context-bridge.js';
export { HANDLER_CONTEXT_VARIABLE, instrumentLangChain, type Uninstrument } from './global.js';
export { ArclightCallbackHandler, HANDLER_NAME } from './handler.js';
export type { ArclightCallbackHandlerOptions, LlmCallSpans } from './options.js';
export {
  defaultAgentName,
  isHiddenRun,
  isLangGraphGraph,
  isLangGraphNode,
} from './run-kind.js';
export { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION } from './version.js';
