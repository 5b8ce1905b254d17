import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13

export {
  AiTelemetryApiError,
  installedAiVersion,
  SUPPORTED_AI_RANGE,
  UnsupportedAiVersionError,
} from './ai-version.js';
export { type ArclightTelemetrySettings, arclightTelemetry } from './arclight-telemetry.js';
export {
  AGENT_NAME,
  AiAttributes,
  ArclightAttributes,
  GEN_AI_SYSTEM_OPENAI,
  GenAI,
  SpanNames,
  TokenAttributes,
  ToolAttributes,
} from './attributes/keys.js';
export {
  type ArclightMiddlewareOptions,
  arclightMiddleware,
  TOKEN_IDS_METADATA_KEY,
  withArclight,
} from './middleware.js';
export type { ArclightTelemetryOptions, LlmCallSpanMode, TracerSource } from './options.js';
export { ArclightTelemetry } from './telemetry.js';
export { tokenIdsFetch } from './token-ids-fetch.js';
export { ArclightTracer } from './tracer/arclight-tracer.js';
export { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION } from './version.js';
