/**
 * Span names and attribute keys of LLM calls in the layout AgentOps' OpenAI instrumentation writes (the default
 * tracer of Agent Lightning v0.x), because that is what upstream's `TracerTraceToTriplet` and
 * `TraceToMessages` adapters read: `gen_ai.request.*`, `gen_ai.prompt.N.*`, `gen_ai.completion.N.*`,
 * `gen_ai.response.*`, `gen_ai.usage.*`, plus the token-id attributes Agent Lightning's own patch adds and the
 * `tool_call.<name>` child spans.
 */

/** Names of LLM-call spans as `@arclight/instrumentation-openai` writes them; `CHAT` is upstream's default `llm_call_match`. */
export const LlmCallSpanNames = Object.freeze({
  CHAT: 'openai.chat.completion',
  RESPONSES: 'openai.responses.create',
  COMPLETION: 'openai.completion',
} as const);

/** Every LLM-call span name the Arclight instrumentations write (chat completions, responses, completions). */
export const LLM_CALL_SPAN_NAMES: readonly string[] = Object.freeze(
  Object.values(LlmCallSpanNames),
);

/**
 * Default LLM-call match of the export: matches every name in `LLM_CALL_SPAN_NAMES` (upstream's default,
 * `openai\.chat\.completion`, matches only the first).
 */
export const LLM_CALL_SPAN_MATCH = /openai\.(?:chat\.completion|responses\.create|completion)/;

/** Value of `gen_ai.system` for OpenAI-protocol models (AgentOps writes `"OpenAI"`). */
export const GEN_AI_SYSTEM_OPENAI = 'OpenAI';

export const GenAI = Object.freeze({
  SYSTEM: 'gen_ai.system',
  OPERATION_NAME: 'gen_ai.operation.name',
  AGENT_NAME: 'gen_ai.agent.name',
  REQUEST_TYPE: 'gen_ai.request.type',
  REQUEST_MODEL: 'gen_ai.request.model',
  REQUEST_MAX_TOKENS: 'gen_ai.request.max_tokens',
  REQUEST_TEMPERATURE: 'gen_ai.request.temperature',
  REQUEST_TOP_P: 'gen_ai.request.top_p',
  REQUEST_TOP_K: 'gen_ai.request.top_k',
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
  TOOL_NAME: 'gen_ai.tool.name',
  TOOL_CALL_ID: 'gen_ai.tool.call.id',
} as const);

/** Token ids and logprobs, under the exact names upstream's adapter reads. */
export const TokenAttributes = Object.freeze({
  PROMPT_TOKEN_IDS: 'prompt_token_ids',
  RESPONSE_TOKEN_IDS: 'response_token_ids',
  /** JSON string of `choices[0].logprobs.content` (upstream: `json.loads(attributes["logprobs.content"])`). */
  LOGPROBS_CONTENT: 'logprobs.content',
  LOGPROBS_REFUSAL: 'logprobs.refusal',
} as const);

/** The child span written per tool call of a completion (AgentOps layout, read by `TraceToMessages`). */
export const ToolCallAttributes = Object.freeze({
  /** Span name prefix: `tool_call.<tool name>`. */
  SPAN_NAME_PREFIX: 'tool_call.',
  NAME: 'tool.name',
  PARAMETERS: 'tool.parameters',
  CALL_ID: 'tool.call.id',
  CALL_TYPE: 'tool.call.type',
} as const);
