/**
 * Span names and attribute keys. LLM-call attributes follow the layout `@arclight/openai` writes (AgentOps'
 * `gen_ai.*` flattening, read by Agent Lightning's `TracerTraceToTriplet` / `TraceToMessages`); agent spans
 * carry `agent.name`, the attribute upstream's adapter reads for agent attribution. Everything else specific
 * to the Agents SDK lives under `openai_agents.*`.
 */

/** Span names. */
export const AgentsSpanNames = Object.freeze({
  /** One per SDK trace (a `run()` / `withTrace()`): the root of the run's spans. */
  TRACE: 'openai_agents.trace',
  TASK: 'openai_agents.task',
  AGENT: 'openai_agents.agent',
  TURN: 'openai_agents.turn',
  /** Generation span when it is not the LLM-call span (another instrumentation records the call). */
  GENERATION: 'openai_agents.generation',
  /** Response span when it is not the LLM-call span. */
  RESPONSE: 'openai_agents.response',
  FUNCTION: 'openai_agents.function',
  HANDOFF: 'openai_agents.handoff',
  GUARDRAIL: 'openai_agents.guardrail',
  CUSTOM: 'openai_agents.custom',
  MCP_TOOLS: 'openai_agents.mcp_tools',
  /** Prefix for other span types: `openai_agents.<type>` (transcription, speech, speech_group, …). */
  PREFIX: 'openai_agents.',
} as const);

/** Names of LLM-call spans, as `@arclight/openai` names them (the first is upstream's `llm_call_match`). */
export const LlmCallSpanNames = Object.freeze({
  /** Generation spans (Chat Completions). */
  CHAT: 'openai.chat.completion',
  /** Response spans (Responses API). */
  RESPONSES: 'openai.responses.create',
} as const);

/** Keys of LLM-call attributes (AgentOps layout). */
export const GenAI = Object.freeze({
  SYSTEM: 'gen_ai.system',
  REQUEST_TYPE: 'gen_ai.request.type',
  REQUEST_MODEL: 'gen_ai.request.model',
  REQUEST_MAX_TOKENS: 'gen_ai.request.max_tokens',
  REQUEST_TEMPERATURE: 'gen_ai.request.temperature',
  REQUEST_TOP_P: 'gen_ai.request.top_p',
  REQUEST_FREQUENCY_PENALTY: 'gen_ai.request.frequency_penalty',
  REQUEST_PRESENCE_PENALTY: 'gen_ai.request.presence_penalty',
  REQUEST_STREAMING: 'gen_ai.request.streaming',
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

/** `gen_ai.system` value (as `@arclight/openai` and AgentOps write it). */
export const GEN_AI_SYSTEM_VALUE = 'OpenAI';

/** Token ids and logprobs, under the names upstream's adapter reads. */
export const TokenAttributes = Object.freeze({
  PROMPT_TOKEN_IDS: 'prompt_token_ids',
  RESPONSE_TOKEN_IDS: 'response_token_ids',
  LOGPROBS_CONTENT: 'logprobs.content',
} as const);

/** Tool attributes: on function spans, and on the `tool_call.<name>` children of LLM-call spans. */
export const ToolAttributes = Object.freeze({
  TOOL_CALL_SPAN_PREFIX: 'tool_call.',
  NAME: 'tool.name',
  PARAMETERS: 'tool.parameters',
  OUTPUT: 'tool.output',
  CALL_ID: 'tool.call.id',
  CALL_TYPE: 'tool.call.type',
} as const);

/** The attribute upstream's adapter reads to attribute LLM calls to agents. */
export const AGENT_NAME = 'agent.name';

/** `openai_agents.*` attributes. */
export const AgentsAttributes = Object.freeze({
  SPAN_TYPE: 'openai_agents.span.type',
  SPAN_ID: 'openai_agents.span_id',
  PARENT_ID: 'openai_agents.parent_id',
  TRACE_ID: 'openai_agents.trace_id',
  TRACE_NAME: 'openai_agents.trace.name',
  GROUP_ID: 'openai_agents.trace.group_id',
  /** Prefix: `openai_agents.trace.metadata.<key>`. */
  TRACE_METADATA: 'openai_agents.trace.metadata',
  AGENT_HANDOFFS: 'openai_agents.agent.handoffs',
  AGENT_TOOLS: 'openai_agents.agent.tools',
  AGENT_OUTPUT_TYPE: 'openai_agents.agent.output_type',
  TASK_NAME: 'openai_agents.task.name',
  TURN: 'openai_agents.turn.number',
  TURN_AGENT_NAME: 'openai_agents.turn.agent_name',
  /** Prefix: `openai_agents.usage.<key>` (task, turn and generation usage as the SDK reports it). */
  USAGE: 'openai_agents.usage',
  MODEL: 'openai_agents.model',
  /** JSON of the generation's `model_config`. */
  MODEL_CONFIG: 'openai_agents.model_config',
  RESPONSE_ID: 'openai_agents.response.id',
  FUNCTION_MCP_DATA: 'openai_agents.function.mcp_data',
  HANDOFF_FROM: 'openai_agents.handoff.from_agent',
  HANDOFF_TO: 'openai_agents.handoff.to_agent',
  GUARDRAIL_NAME: 'openai_agents.guardrail.name',
  GUARDRAIL_TRIGGERED: 'openai_agents.guardrail.triggered',
  CUSTOM_NAME: 'openai_agents.custom.name',
  /** JSON of a custom span's `data`. */
  CUSTOM_DATA: 'openai_agents.custom.data',
  MCP_SERVER: 'openai_agents.mcp_tools.server',
  MCP_RESULT: 'openai_agents.mcp_tools.result',
  /** Prefix for the fields of other span types: `openai_agents.data.<field>`. */
  DATA: 'openai_agents.data',
  /** JSON of `span.error.data`. */
  ERROR_DATA: 'openai_agents.error.data',
  /** `true` on a span that was ended by the processor (evicted or shut down) rather than by the SDK. */
  UNFINISHED: 'openai_agents.unfinished',
} as const);
