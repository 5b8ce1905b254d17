/**
 * Span names and attribute keys. LLM-call attributes follow the layout `@arclight/instrumentation-openai` writes (AgentOps'
 * `gen_ai.*` flattening, read by Agent Lightning's `TracerTraceToTriplet` / `TraceToMessages`); agent spans
 * carry `agent.name`, the attribute upstream's adapter reads for agent attribution. Everything else specific
 * to the Agents SDK lives under `openai_agents.*`.
 */

import { ToolCallAttributes } from '@arclight/core';

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

// `LlmCallSpanNames`: names of LLM-call spans, as `@arclight/instrumentation-openai` names them.
export {
  GEN_AI_SYSTEM_OPENAI as GEN_AI_SYSTEM_VALUE,
  GenAI,
  LlmCallSpanNames,
  TokenAttributes,
} from '@arclight/core';

/** Tool attributes: on function spans, and on the `tool_call.<name>` children of LLM-call spans. */
export const ToolAttributes = Object.freeze({
  ...ToolCallAttributes,
  TOOL_CALL_SPAN_PREFIX: ToolCallAttributes.SPAN_NAME_PREFIX,
  OUTPUT: 'tool.output',
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
