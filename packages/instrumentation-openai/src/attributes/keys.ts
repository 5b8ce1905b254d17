/**
 * Span names and attribute keys. The LLM-call layout (`gen_ai.*`, token ids, `tool_call.<name>` children) is
 * AgentOps' OpenAI instrumentation's, shared with the other integrations through `@arclight/core`.
 */
import { LlmCallSpanNames } from '@arclight/core';

export {
  GEN_AI_SYSTEM_OPENAI as GEN_AI_SYSTEM_VALUE,
  GenAI,
  TokenAttributes,
  ToolCallAttributes,
} from '@arclight/core';

/** Span names. `openai.chat.completion` is upstream's default `llm_call_match`. */
export const SpanNames = LlmCallSpanNames;

/** Arclight-specific attributes. */
export const ArclightAttributes = Object.freeze({
  /** `true` when a stream ended before the server finished it (the span carries what arrived). */
  STREAM_PARTIAL: 'arclight.stream.partial',
  /** Why a partial stream ended: `abandoned`, `aborted`, `error` or `garbage_collected`. */
  STREAM_END_REASON: 'arclight.stream.end_reason',
  /** `true` when the caller read the raw HTTP response (`asResponse()`), so no body was parsed. */
  RAW_RESPONSE: 'arclight.openai.raw_response',
  ERROR_TYPE: 'error.type',
} as const);
