/**
 * Span names and attribute keys. Model-call spans use the layout of `@arclight/instrumentation-openai` (AgentOps' OpenAI
 * instrumentation, the default tracer of Agent Lightning v0.x), which upstream's `TracerTraceToTriplet` and
 * `TraceToMessages` read; operation and tool spans keep the AI SDK's own `ai.*` names.
 */

import { LlmCallSpanNames, ToolCallAttributes } from '@arclight/core';

// `ToolAttributes`: the AgentOps `tool.*` keys (`TraceToMessages` reads them on `tool_call.<name>` spans).
export {
  GEN_AI_SYSTEM_OPENAI,
  GenAI,
  TokenAttributes,
  ToolCallAttributes as ToolAttributes,
} from '@arclight/core';

export const SpanNames = Object.freeze({
  /** A model call that counts as an LLM call (upstream's default `llm_call_match`). */
  LLM_CALL: LlmCallSpanNames.CHAT,
  /** A counted model call of a provider that does not speak OpenAI's protocol (add it to `llmCallMatch`). */
  CHAT_MODEL: 'ai.chat_model',
  /** Prefix of a tool-call child span of a model call (`tool_call.<name>`, the AgentOps layout). */
  TOOL_CALL_PREFIX: ToolCallAttributes.SPAN_NAME_PREFIX,
  /** A tool execution (the AI SDK's name for it). */
  TOOL_EXECUTION: 'ai.toolCall',
} as const);

/** The AI SDK's own attribute names (its legacy OpenTelemetry layout). */
export const AiAttributes = Object.freeze({
  OPERATION_ID: 'ai.operationId',
  MODEL_ID: 'ai.model.id',
  MODEL_PROVIDER: 'ai.model.provider',
  FUNCTION_ID: 'ai.telemetry.functionId',
  CALL_ID: 'ai.callId',
  PROMPT: 'ai.prompt',
  RESPONSE_TEXT: 'ai.response.text',
  RESPONSE_OBJECT: 'ai.response.object',
  RESPONSE_FINISH_REASON: 'ai.response.finishReason',
  USAGE_INPUT_TOKENS: 'ai.usage.inputTokens',
  USAGE_OUTPUT_TOKENS: 'ai.usage.outputTokens',
  STEPS: 'ai.steps',
  TOOL_CALL_NAME: 'ai.toolCall.name',
  TOOL_CALL_ID: 'ai.toolCall.id',
  TOOL_CALL_ARGS: 'ai.toolCall.args',
  TOOL_CALL_RESULT: 'ai.toolCall.result',
} as const);

/** The attribute upstream's adapter reads for agent attribution (`agent_match`). */
export const AGENT_NAME = 'agent.name';

/** Arclight-specific attributes. */
export const ArclightAttributes = Object.freeze({
  /** `true` when a stream ended before the provider finished it (the span carries what arrived). */
  STREAM_PARTIAL: 'arclight.stream.partial',
  /** Why a partial stream ended: `cancelled`, `error` or `abandoned` (the operation ended first). */
  STREAM_END_REASON: 'arclight.stream.end_reason',
  /** `true` on an operation span whose stream was aborted. */
  ABORTED: 'arclight.aborted',
  ERROR_TYPE: 'error.type',
} as const);
