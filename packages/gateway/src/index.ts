export { anthropicError, chatToMessage, messagesToChat } from './anthropic-messages.js';
export { Backend, type BackendConfig, BackendPool } from './backend-pool.js';
export { DEFAULT_RETRY, ForwardError, type RetryPolicy } from './forwarder.js';
export { GATEWAY_SCOPE, LlmGateway, startGateway } from './gateway.js';
export { DEFAULT_BODY_LIMIT, type GatewayOptions, type ResolvedGatewayOptions } from './options.js';
export type { GatewayState, PauseMode } from './pause-gate.js';
export { GatewayAttributes } from './recording/call-recorder.js';
export { parseRoute } from './route.js';
