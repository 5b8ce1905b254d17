import {
  AttributeBag,
  asRecord,
  asString,
  type JsonRecord,
  toolCallSpanAttributes,
} from '@arclight/core';
import {
  type Context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { AiAttributes, GenAI, SpanNames } from '../attributes/keys.js';
import { asText } from '../json.js';
import { recordError } from './errors.js';

/** The span of one tool execution (`ai.toolCall`), active while the tool's `execute` runs. */
export interface ToolSpan {
  span: Span;
  context: Context;
}

export function startToolSpan(tracer: Tracer, parent: Context, event: JsonRecord): ToolSpan {
  const toolCall = asRecord(event.toolCall) ?? {};
  const name = asString(toolCall.toolName);
  const id = asString(toolCall.toolCallId);
  const args = event.recordInputs === false ? undefined : asText(toolCall.input);
  const bag = new AttributeBag();
  bag.set(AiAttributes.TOOL_CALL_NAME, name);
  bag.set(AiAttributes.TOOL_CALL_ID, id);
  bag.set(AiAttributes.TOOL_CALL_ARGS, args);
  bag.set(AiAttributes.CALL_ID, asString(event.callId));
  bag.set(GenAI.OPERATION_NAME, 'execute_tool');
  bag.set(GenAI.TOOL_NAME, name);
  bag.set(GenAI.TOOL_CALL_ID, id);
  bag.merge(toolCallSpanAttributes({ id, name, arguments: args }, true));
  const span = tracer.startSpan(
    SpanNames.TOOL_EXECUTION,
    { kind: SpanKind.INTERNAL, attributes: bag.attributes },
    parent,
  );
  return { span, context: trace.setSpan(parent, span) };
}

/** Records the tool's output (`onToolExecutionEnd`) or its error, and ends the span. */
export function endToolSpan(tool: ToolSpan, event: JsonRecord): void {
  const output = asRecord(event.toolOutput) ?? {};
  if (output.type === 'tool-error') {
    recordError(tool.span, output.error ?? new Error('tool failed'));
  } else {
    if (event.recordOutputs !== false) {
      const text = asText(output.output);
      if (text !== undefined) tool.span.setAttribute(AiAttributes.TOOL_CALL_RESULT, text);
    }
    tool.span.setStatus({ code: SpanStatusCode.OK });
  }
  tool.span.end();
}
