import { agentNameOf } from '@arclight/adapter';
import type { Span } from '@arclight/core';
import { isRewardSpan } from '@arclight/core';

/** What a span stands for in the trace view. */
export type SpanKind = 'agent' | 'llm' | 'tool' | 'reward' | 'exception' | 'virtual' | 'other';

/** Spans the adapter treats as LLM calls by default (upstream's `llm_call_match`). */
export const LLM_CALL_NAME = /openai\.chat\.completion/;

const attr = (span: Span, key: string): unknown =>
  Object.hasOwn(span.attributes ?? {}, key) ? span.attributes[key] : undefined;

/** The exception a span recorded: an `agentlightning.exception` span, an `exception` event or an error status. */
export interface SpanException {
  type: string | null;
  message: string | null;
  stacktrace: string | null;
}

export function exceptionOf(span: Span): SpanException | null {
  if (span.name === 'agentlightning.exception' || attr(span, 'exception.type') !== undefined) {
    return {
      type: str(attr(span, 'exception.type')),
      message: str(attr(span, 'exception.message')),
      stacktrace: str(attr(span, 'exception.stacktrace')),
    };
  }
  for (const event of span.events ?? []) {
    if (event.name !== 'exception') continue;
    const a = event.attributes ?? {};
    return {
      type: str(a['exception.type']),
      message: str(a['exception.message']),
      stacktrace: str(a['exception.stacktrace']),
    };
  }
  if (span.status?.status_code === 'ERROR') {
    return { type: null, message: span.status.description ?? null, stacktrace: null };
  }
  return null;
}

const str = (value: unknown): string | null =>
  value === undefined || value === null ? null : String(value);

/** Classifies a span; an exception wins over everything else so failures stand out. */
export function spanKind(span: Span): SpanKind {
  if (span.name === 'agentlightning.virtual' || span.span_id === 'virtual-root') return 'virtual';
  if (exceptionOf(span) !== null) return 'exception';
  if (safeIsReward(span)) return 'reward';
  if (LLM_CALL_NAME.test(span.name) || attr(span, 'gen_ai.operation.name') === 'chat') return 'llm';
  if (agentNameOf(span) !== undefined) return 'agent';
  const genAiOp = attr(span, 'gen_ai.operation.name');
  if (
    genAiOp === 'execute_tool' ||
    attr(span, 'gen_ai.tool.name') !== undefined ||
    attr(span, 'tool.name') !== undefined ||
    /\btool\b/i.test(span.name)
  ) {
    return 'tool';
  }
  if (genAiOp === 'invoke_agent' || /\bagent\b/i.test(span.name)) return 'agent';
  return 'other';
}

function safeIsReward(span: Span): boolean {
  try {
    return isRewardSpan(span);
  } catch {
    return false;
  }
}

/** A short label: the agent or tool name when the span has one. */
export function spanLabel(span: Span): string {
  const agent = agentNameOf(span);
  if (agent !== undefined && agent !== null) return `${span.name} [${String(agent)}]`;
  const tool = attr(span, 'gen_ai.tool.name') ?? attr(span, 'tool.name');
  if (tool !== undefined) return `${span.name} [${String(tool)}]`;
  return span.name;
}
