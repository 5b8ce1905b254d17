import { recordError } from '@arclight/instrumentation';
import type { Span } from '@opentelemetry/api';
import { LangChainAttributes } from './attributes/keys.js';

/**
 * Records how a run failed (the toolkit's one rule: status ERROR, `error.type`, an `exception` event).
 * LangGraph's control-flow signals (interrupts, `Command`s to a parent graph: errors with `is_bubble_up`) are
 * no failures: they are noted as `langgraph.bubble_up` and the status stays unset.
 */
export function recordRunError(span: Span, error: unknown): void {
  if (error instanceof Error && (error as { is_bubble_up?: unknown }).is_bubble_up === true) {
    span.setAttribute(LangChainAttributes.BUBBLE_UP, error.name);
    return;
  }
  recordError(span, error);
}
