import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13

export {
  ArclightAttributes,
  GEN_AI_SYSTEM_VALUE,
  GenAI,
  SpanNames,
  TokenAttributes,
  ToolCallAttributes,
} from './attributes/keys.js';
export { instrumentOpenAI, isOpenAIInstrumented, type Uninstrument } from './instrument.js';
export {
  OpenAIInstrumentation,
  type OpenAIInstrumentationConfig,
  SUPPORTED_OPENAI_VERSIONS,
} from './instrumentation.js';
export type { OpenAIInstrumentationOptions } from './options.js';
export { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION } from './version.js';
