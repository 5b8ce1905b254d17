import { type Span, SpanStatusCode } from '@opentelemetry/api';
import { LangChainAttributes } from './attributes/keys.js';

/**
 * Records how a run failed: status ERROR, `error.type` and an `exception` event. LangGraph's control-flow
 * signals (interrupts, `Command`s to a parent graph: errors with `is_bubble_up`) are no failures: they are
 * noted as `langgraph.bubble_up` and the status stays unset.
 */
export function recordRunError(span: Span, error: unknown): void {
  if (error instanceof Error) {
    if ((error as { is_bubble_up?: unknown }).is_bubble_up === true) {
      span.setAttribute(LangChainAttributes.BUBBLE_UP, error.name);
      return;
    }
    span.recordException(error);
    span.setAttribute(
      LangChainAttributes.ERROR_TYPE,
      error.name && error.name !== 'Error' ? error.name : error.constructor.name,
    );
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    return;
  }
  const message = typeof error === 'string' ? firstLine(error) : String(error);
  span.recordException({ name: 'Error', message });
  span.setAttribute(LangChainAttributes.ERROR_TYPE, 'Error');
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return end === -1 ? text : text.slice(0, end);
}
