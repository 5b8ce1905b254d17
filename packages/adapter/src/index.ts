export {
  findFinalReward,
  findRewardSpans,
  getRewardsFromSpan,
  getRewardValue,
  isRewardSpan,
} from '@arclight/core';
export type { Adapter } from './adapter.js';
export { type LightningRLOptions, lastReward, lightningRL } from './lightning-rl.js';
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
export { type TraceSource, toStoredSpans } from './triplet/source-spans.js';
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
  TraceToTriplet,
  type TraceToTripletOptions,
} from './triplet/trace-to-triplet.js';
export {
  buildTraceTree,
  repairHierarchy,
  TraceTree,
  VIRTUAL_ROOT_ID,
} from './triplet/trace-tree.js';
