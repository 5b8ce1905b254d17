import { AttributeBag, asArray, asRecord, asString, type JsonRecord } from '@arclight/core';
import { type Context, type Span, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { AGENT_NAME, AiAttributes, GenAI } from '../attributes/keys.js';
import type { ResolvedOptions } from '../options.js';
import { finishReasonOf, usageOf } from './model-call-outcome.js';

/** Operations whose model calls this package records. */
export const TEXT_OPERATIONS: ReadonlySet<string> = new Set([
  'ai.generateText',
  'ai.streamText',
  'ai.generateObject',
  'ai.streamObject',
]);

export function isStreamingOperation(operationId: string): boolean {
  return operationId === 'ai.streamText' || operationId === 'ai.streamObject';
}

/**
 * The span of one `generateText` / `streamText` / `generateObject` / `streamObject` call, named by its
 * operation id. It carries `agent.name` (the agent name option, else the telemetry `functionId`) so the
 * adapter attributes the LLM calls under it to that agent.
 */
export function startOperationSpan(
  tracer: Tracer,
  parent: Context,
  operationId: string,
  event: JsonRecord,
  options: ResolvedOptions,
): Span {
  const bag = new AttributeBag();
  const functionId = asString(event.functionId);
  const agentName = options.agentName ?? functionId;
  bag.set(AiAttributes.OPERATION_ID, operationId);
  bag.set(AiAttributes.MODEL_PROVIDER, asString(event.provider));
  bag.set(AiAttributes.MODEL_ID, asString(event.modelId));
  bag.set(AiAttributes.FUNCTION_ID, functionId);
  bag.set(AiAttributes.CALL_ID, asString(event.callId));
  bag.set(GenAI.OPERATION_NAME, 'invoke_agent');
  bag.set(GenAI.REQUEST_MODEL, asString(event.modelId));
  bag.set(AGENT_NAME, agentName);
  bag.set(GenAI.AGENT_NAME, agentName);
  if (event.recordInputs !== false) {
    const prompt: JsonRecord = {};
    for (const key of ['instructions', 'system', 'prompt', 'messages']) {
      if (event[key] !== undefined) prompt[key] = event[key];
    }
    bag.setJson(AiAttributes.PROMPT, prompt);
  }
  return tracer.startSpan(
    operationId,
    { kind: SpanKind.INTERNAL, attributes: bag.attributes },
    parent,
  );
}

/** Records the operation's result (`onEnd`) on its span. */
export function recordOperationEnd(span: Span, event: JsonRecord): void {
  const bag = new AttributeBag();
  const captureOutputs = event.recordOutputs !== false;
  if (captureOutputs) {
    bag.set(AiAttributes.RESPONSE_TEXT, asString(event.text));
    if (event.object !== undefined) bag.setJson(AiAttributes.RESPONSE_OBJECT, event.object);
  }
  bag.set(AiAttributes.RESPONSE_FINISH_REASON, finishReasonOf(event.finishReason));
  const usage = usageOf(event.totalUsage ?? event.usage);
  bag.set(AiAttributes.USAGE_INPUT_TOKENS, usage?.prompt_tokens);
  bag.set(AiAttributes.USAGE_OUTPUT_TOKENS, usage?.completion_tokens);
  if (Array.isArray(event.steps)) bag.set(AiAttributes.STEPS, asArray(event.steps).length);
  span.setAttributes(bag.attributes);
  const error = asRecord(event)?.error;
  if (error === undefined || error === null) span.setStatus({ code: SpanStatusCode.OK });
}
