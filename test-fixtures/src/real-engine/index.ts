export { type ParsedToolCall, parseToolCalls, renderToolCall, templateMessages } from './chat.js';
export { ensureRealModel, type RealModelFiles } from './locate.js';
export { RealModel, type SampledToken, type SampleOptions } from './model.js';
export {
  REAL_MODEL_NAME,
  type RealEngine,
  type RealEngineOptions,
  startRealEngine,
} from './server.js';
