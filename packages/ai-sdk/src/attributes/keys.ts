/**
 * Span names and attribute keys. Model-call spans use the layout of `@arclight/openai` (AgentOps' OpenAI
 * instrumentation, the default tracer of Agent Lightning v0.x), which upstream's `TracerTraceToTriplet` and
 * `TraceToMessages` read; operation and tool spans keep the AI SDK's own `ai.*` names.
 */

export const SpanNames = Object.freeze({
  /** A model call that counts as an LLM call (upstream's default `llm_call_match`). */
  LLM_CALL: 'openai.chat.completion',
  /** A counted model call of a provider that does not speak OpenAI's protocol (add it to `llmCallMatch`). */
  CHAT_MODEL: 'ai.chat_model',
  /** Prefix of a tool-call child span of a model call (`tool_call.<name>`, the AgentOps layout). */
  TOOL_CALL_PREFIX: 'tool_call.',
  /** A tool execution (the AI SDK's name for it). */
  TOOL_EXECUTION: 'ai.toolCall',
} as const);

/** Value of `gen_ai.system` for OpenAI-protocol providers (AgentOps writes `"OpenAI"`). */
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
  /** Prefix: `gen_ai.completion.N.role|content|finish_reason|tool_calls.M.id|name|arguments`. */
  COMPLETION: 'gen_ai.completion',
  RESPONSE_ID: 'gen_ai.response.id',
  RESPONSE_MODEL: 'gen_ai.response.model',
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
  /** JSON string of `choices[0].logprobs.content`. */
  LOGPROBS_CONTENT: 'logprobs.content',
} as const);

/** Tool attributes in the AgentOps layout (`TraceToMessages` reads `tool.*` on `tool_call.<name>` spans). */
export const ToolAttributes = Object.freeze({
  NAME: 'tool.name',
  PARAMETERS: 'tool.parameters',
  CALL_ID: 'tool.call.id',
  CALL_TYPE: 'tool.call.type',
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
