import type { Span } from '@arclight/core';

const get = (attributes: Span['attributes'], key: string): unknown =>
  Object.hasOwn(attributes, key) ? (attributes[key] ?? undefined) : undefined;

/**
 * Upstream `TraceTree.agent_name`: the agent a span stands for, from the first attribute layout that has
 * one, or `undefined`. In order: `agent.name` (OpenAI Agents SDK); `operation.name` when
 * `agentops.span.kind == "agent"` (AgentOps `@agent`); `recipient_agent_type` (AutoGen team);
 * `langchain.chain.type` (LangGraph); `executor.id` (Microsoft agent-framework);
 * `agentlightning.operation.input.name` when `type == "agent"` (Weave); `lc_name` on spans named
 * `langchain.Chain.*` (Weave + LangChain). The value is returned as stored (upstream does not check it is a
 * string).
 */
export function agentNameOf(span: Span): unknown {
  const attributes = span.attributes ?? {};
  const direct = get(attributes, 'agent.name');
  if (direct !== undefined) return direct;
  if (get(attributes, 'agentops.span.kind') === 'agent') {
    const name = get(attributes, 'operation.name');
    if (name !== undefined) return name;
  }
  for (const key of ['recipient_agent_type', 'langchain.chain.type', 'executor.id']) {
    const name = get(attributes, key);
    if (name !== undefined) return name;
  }
  if (get(attributes, 'type') === 'agent') {
    const name = get(attributes, 'agentlightning.operation.input.name');
    if (name !== undefined) return name;
  }
  if (span.name.startsWith('langchain.Chain.')) {
    const name = get(attributes, 'lc_name');
    if (name !== undefined) return name;
  }
  return undefined;
}
