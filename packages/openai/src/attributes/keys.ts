/**
 * Span names and attribute keys. They follow the layout AgentOps' OpenAI instrumentation writes (the default
 * tracer of Agent Lightning v0.x), because that is what upstream's `TracerTraceToTriplet` and
 * `TraceToMessages` adapters read: `gen_ai.prompt.N.*`, `gen_ai.completion.N.*`, `gen_ai.request.*`,
 * `gen_ai.response.*`, `gen_ai.usage.*`, plus the token-id attributes Agent Lightning's own patch adds.
 */

/** Span names. `openai.chat.completion` is upstream's default `llm_call_match`. */
export const SpanNames = Object.freeze({
  CHAT: 'openai.chat.completion',
  RESPONSES: 'openai.responses.create',
  COMPLETION: 'openai.completion',
} as const);

/** Value of `gen_ai.system` (AgentOps writes `"OpenAI"`). */
export const GEN_AI_SYSTEM_VALUE = 'OpenAI';

export const GenAI = Object.freeze({
  SYSTEM: 'gen_ai.system',
  REQUEST_TYPE: 'gen_ai.request.type',
  REQUEST_MODEL: 'gen_ai.request.model',
  REQUEST_MAX_TOKENS: 'gen_ai.request.max_tokens',
  REQUEST_TEMPERATURE: 'gen_ai.request.temperature',
  REQUEST_TOP_P: 'gen_ai.request.top_p',
  REQUEST_FREQUENCY_PENALTY: 'gen_ai.request.frequency_penalty',
  REQUEST_PRESENCE_PENALTY: 'gen_ai.request.presence_penalty',
  REQUEST_SEED: 'gen_ai.request.seed',
  REQUEST_N: 'gen_ai.request.n',
  REQUEST_STOP: 'gen_ai.request.stop',
  REQUEST_STREAMING: 'gen_ai.request.streaming',
  REQUEST_LOGPROBS: 'gen_ai.request.logprobs',
  REQUEST_TOP_LOGPROBS: 'gen_ai.request.top_logprobs',
  REQUEST_RETURN_TOKEN_IDS: 'gen_ai.request.return_token_ids',
  /** Prefix: `gen_ai.request.functions.N.name|description|parameters`. */
  REQUEST_FUNCTIONS: 'gen_ai.request.functions',
  /** Prefix: `gen_ai.prompt.N.role|content|tool_call_id|tool_calls.M.id|name|arguments`. */
  PROMPT: 'gen_ai.prompt',
  /** Prefix: `gen_ai.completion.N.role|content|refusal|finish_reason|tool_calls.M.id|name|arguments`. */
  COMPLETION: 'gen_ai.completion',
  RESPONSE_ID: 'gen_ai.response.id',
  RESPONSE_MODEL: 'gen_ai.response.model',
  OPENAI_SYSTEM_FINGERPRINT: 'gen_ai.openai.system_fingerprint',
  USAGE_PROMPT_TOKENS: 'gen_ai.usage.prompt_tokens',
  USAGE_COMPLETION_TOKENS: 'gen_ai.usage.completion_tokens',
  USAGE_TOTAL_TOKENS: 'gen_ai.usage.total_tokens',
  USAGE_REASONING_TOKENS: 'gen_ai.usage.reasoning_tokens',
  USAGE_CACHE_READ_INPUT_TOKENS: 'gen_ai.usage.cache_read_input_tokens',
} as const);

/** Token ids and logprobs, under the exact names upstream's adapter reads. */
export const TokenAttributes = Object.freeze({
  PROMPT_TOKEN_IDS: 'prompt_token_ids',
  RESPONSE_TOKEN_IDS: 'response_token_ids',
  /** JSON string of `choices[0].logprobs.content` (upstream: `json.loads(attributes["logprobs.content"])`). */
  LOGPROBS_CONTENT: 'logprobs.content',
  LOGPROBS_REFUSAL: 'logprobs.refusal',
} as const);

/** Attributes of the child span written per tool call (AgentOps layout, read by `TraceToMessages`). */
export const ToolCallAttributes = Object.freeze({
  SPAN_NAME_PREFIX: 'tool_call.',
  NAME: 'tool.name',
  PARAMETERS: 'tool.parameters',
  CALL_ID: 'tool.call.id',
  CALL_TYPE: 'tool.call.type',
} as const);

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
