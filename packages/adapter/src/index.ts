import '@arclight/core/supported-node'; // first: a clear error on Node.js < 22.13

export { type LightningRLOptions, lightningRL } from './lightning-rl.js';
export type {
  ChatAssistantMessage,
  ChatContentMessage,
  ChatFunctionTool,
  ChatMessage,
  ChatToolCall,
  ChatToolMessage,
  OpenAIMessages,
} from './messages/chat-types.js';
export { groupGenaiDict } from './messages/group-genai.js';
export { TraceToMessages } from './messages/trace-to-messages.js';
export type { Pattern } from './pattern.js';
export { agentNameOf } from './triplet/agent-name.js';
export {
  ANY_AGENT,
  type FindLlmCallsOptions,
  findLlmCalls,
  type LlmCall,
} from './triplet/llm-calls.js';
export { matchRewards, RewardMatchPolicy } from './triplet/match-rewards.js';
export {
  extractPromptImageUrls,
  PROMPT_TOKEN_ID_KEYS,
  RESPONSE_TOKEN_ID_KEYS,
  spanToTriplet,
  type TripletPrompt,
  type TripletResponse,
} from './triplet/span-to-triplet.js';
export {
  DEFAULT_LLM_CALL_MATCH,
  TracerTraceToTriplet,
  type TraceSource,
  TraceToTriplet,
  type TraceToTripletOptions,
  toStoredSpans,
} from './triplet/trace-to-triplet.js';
export {
  buildTraceTree,
  repairHierarchy,
  TraceTree,
  VIRTUAL_ROOT_ID,
} from './triplet/trace-tree.js';
