/**
 * Span names and attribute keys written by the LangChain handler.
 *
 * LLM-call spans use the layout `@arclight/instrumentation-openai` writes (AgentOps' OpenAI instrumentation, which Agent
 * Lightning's adapters read): `gen_ai.prompt.N.*`, `gen_ai.completion.N.*`, `gen_ai.request.*`,
 * `gen_ai.response.*`, `gen_ai.usage.*`, `prompt_token_ids`, `response_token_ids`.
 */

import { GEN_AI_SYSTEM_OPENAI, LlmCallSpanNames } from '@arclight/core';

export { GenAI, TokenAttributes } from '@arclight/core';

export const SpanNames = Object.freeze({
  /** A chat-model run that is the LLM call of an OpenAI-compatible model (upstream's default `llm_call_match`). */
  OPENAI_CHAT: LlmCallSpanNames.CHAT,
  /** Any other chat-model run (another provider, or OpenAI while `@arclight/instrumentation-openai` records the call). */
  CHAT_MODEL: 'langchain.chat_model',
  /** A completion-style LLM run (`run.inputs.prompts`). */
  LLM: 'langchain.llm',
  /** Prefix of LangGraph node spans: `langgraph.node.<node name>`. */
  NODE_PREFIX: 'langgraph.node.',
  /** Prefix of LangGraph graph spans: `langgraph.graph.<graph name>`. */
  GRAPH_PREFIX: 'langgraph.graph.',
  /** Prefix of every other run's span: `langchain.<run type>.<run name>`. */
  RUN_PREFIX: 'langchain.',
} as const);

export const LangChainAttributes = Object.freeze({
  /**
   * The agent name on agent-like runs (LangGraph nodes and graphs, root chains): what upstream's
   * `TracerTraceToTriplet` reads for `agent_match` (AgentOps' LangChain handler writes the same key).
   */
  CHAIN_TYPE: 'langchain.chain.type',
  RUN_ID: 'langchain.run.id',
  PARENT_RUN_ID: 'langchain.run.parent_id',
  RUN_TYPE: 'langchain.run.type',
  RUN_NAME: 'langchain.run.name',
  TAGS: 'langchain.run.tags',
  /** JSON of the run's metadata (`run.extra.metadata`). */
  METADATA: 'langchain.metadata',
  /** JSON of the run's inputs / outputs (not on LLM-call spans, which carry `gen_ai.*`). */
  INPUTS: 'langchain.inputs',
  OUTPUTS: 'langchain.outputs',
  /** JSON of the model's invocation parameters (`run.extra.invocation_params`). */
  INVOCATION_PARAMS: 'langchain.invocation_params',
  /** `ls_provider` / `ls_model_name` of model runs. */
  PROVIDER: 'langchain.model.provider',
  MODEL: 'langchain.model.name',
  TOOL_CALL_ID: 'langchain.tool.call_id',
  /** `true` on runs LangChain marks hidden (`langsmith:hidden`), when `includeHidden` is on. */
  HIDDEN: 'langchain.run.hidden',
  /** Set when a LangGraph control-flow signal (interrupt, parent command) ended the run: its class name. */
  BUBBLE_UP: 'langgraph.bubble_up',
  NODE: 'langgraph.node',
  STEP: 'langgraph.step',
  THREAD_ID: 'langgraph.thread_id',
  ERROR_TYPE: 'error.type',
} as const);

/** `gen_ai.system` of OpenAI-compatible models (AgentOps writes `"OpenAI"`, as `@arclight/instrumentation-openai` does). */
export const OPENAI_SYSTEM = GEN_AI_SYSTEM_OPENAI;

/** LangChain's tag for runs that tracers should not show. */
export const HIDDEN_TAG = 'langsmith:hidden';
