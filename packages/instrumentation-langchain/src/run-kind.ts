import { asArray, asString } from '@arclight/core';
import type { Run } from '@langchain/core/tracers/base';
import { HIDDEN_TAG, OPENAI_SYSTEM, SpanNames } from './attributes/keys.js';
import { runMetadata, runTags, serializedClass, serializedPath } from './attributes/run.js';

/** LangGraph's internal runnables, hidden even when a version does not tag them `langsmith:hidden`. */
const INTERNAL_NAME = /^(__start__|__end__|ChannelWrite|ChannelRead|Branch)(<|$)/;
const STEP_TAG = /^graph:step:\d+$/;

/** Runs LangChain marks hidden (`langsmith:hidden`) and LangGraph internals (`__start__`, `ChannelWrite`, `Branch`). */
export function isHiddenRun(run: Run): boolean {
  return runTags(run).includes(HIDDEN_TAG) || INTERNAL_NAME.test(run.name);
}

/** A LangGraph node run: named after its node (`metadata.langgraph_node`) and tagged `graph:step:N`. */
export function isLangGraphNode(run: Run): boolean {
  return (
    run.run_type === 'chain' &&
    runMetadata(run).langgraph_node === run.name &&
    runTags(run).some((tag) => STEP_TAG.test(tag))
  );
}

/** A compiled LangGraph graph (`serialized.id` starts with `langgraph`, e.g. `langgraph.pregel.CompiledStateGraph`). */
export function isLangGraphGraph(run: Run): boolean {
  return run.run_type === 'chain' && serializedPath(run).startsWith('langgraph.');
}

/**
 * The agent name of a run, written as `langchain.chain.type`: LangGraph nodes (the node name), graphs and
 * root chains (their run name). Nested helper chains (prompt templates, sequences, lambdas, parsers) are no
 * agents, so LLM calls inside them stay attributed to the enclosing node.
 */
export function defaultAgentName(run: Run, isRoot: boolean): string | undefined {
  if (run.run_type !== 'chain') return undefined;
  if (isLangGraphNode(run) || isLangGraphGraph(run) || isRoot) return run.name;
  return undefined;
}

/** Whether a model run talks to an OpenAI-compatible chat-completions API (`ChatOpenAI`, `AzureChatOpenAI`). */
export function isOpenAICompatible(run: Run): boolean {
  const provider = asString(runMetadata(run).ls_provider);
  if (provider === 'openai' || provider === 'azure') return true;
  return /OpenAI/.test(serializedClass(run));
}

export function isChatModelRun(run: Run): boolean {
  return run.run_type === 'llm' && asArray(run.inputs?.messages).length > 0;
}

/** `gen_ai.system` of an LLM-call span: `OpenAI` for OpenAI-compatible models, else the provider or class. */
export function llmSystem(run: Run): string {
  if (isOpenAICompatible(run)) return OPENAI_SYSTEM;
  return asString(runMetadata(run).ls_provider) ?? (serializedClass(run) || run.name);
}

/** Span name of a model run. */
export function modelSpanName(run: Run, llmCall: boolean): string {
  if (!isChatModelRun(run)) return SpanNames.LLM;
  return llmCall && isOpenAICompatible(run) ? SpanNames.OPENAI_CHAT : SpanNames.CHAT_MODEL;
}

/** Span name of a non-model run: `langgraph.node.<name>`, `langgraph.graph.<name>` or `langchain.<type>.<name>`. */
export function runSpanName(run: Run): string {
  if (isLangGraphNode(run)) return `${SpanNames.NODE_PREFIX}${run.name}`;
  if (isLangGraphGraph(run)) return `${SpanNames.GRAPH_PREFIX}${run.name}`;
  return `${SpanNames.RUN_PREFIX}${run.run_type}.${run.name}`;
}
