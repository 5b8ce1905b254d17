import { type ToolCallRecord, toolCallSpanAttributes, toolCallSpanName } from '@arclight/core';
import {
  type Context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TimeInput,
  type Tracer,
  trace,
} from '@opentelemetry/api';

/**
 * One `tool_call.<name>` child span per tool call of a completion, under `llmSpan` (the layout AgentOps
 * writes, from which upstream's `TraceToMessages` rebuilds assistant tool calls), at `time` (default now).
 */
export function writeToolCallSpans(
  tracer: Tracer,
  parent: Context,
  llmSpan: Span,
  calls: readonly ToolCallRecord[],
  captureContent: boolean,
  time?: TimeInput,
): void {
  if (calls.length === 0) return;
  const context = trace.setSpan(parent, llmSpan);
  for (const call of calls) {
    const child = tracer.startSpan(
      toolCallSpanName(call),
      {
        kind: SpanKind.INTERNAL,
        attributes: toolCallSpanAttributes(call, captureContent),
        ...(time !== undefined ? { startTime: time } : {}),
      },
      context,
    );
    child.setStatus({ code: SpanStatusCode.OK });
    child.end(time);
  }
}
