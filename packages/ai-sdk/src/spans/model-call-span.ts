import {
  AttributeBag,
  asArray,
  asRecord,
  asString,
  type JsonRecord,
  toolCallSpanAttributes,
  toolCallSpanName,
} from '@arclight/core';
import {
  type Context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { AiAttributes, ArclightAttributes, GenAI } from '../attributes/keys.js';
import { setRequestAttributes } from '../attributes/request.js';
import { type ModelCallOutcome, setResponseAttributes } from '../attributes/response.js';
import { parseJsonRecord } from '../json.js';
import { modelSpanIdentity } from '../llm-call-span.js';
import type { ResolvedOptions } from '../options.js';
import { safely } from '../safely.js';
import { recordError } from './errors.js';

export interface ModelCallStart {
  /** The AI SDK's model-call event: `provider`, `modelId`, `instructions`, `messages`, `tools`, settings. */
  event: JsonRecord;
  operationId: string;
  streaming: boolean;
  callId: string;
}

/** How a model call ended, besides its outcome. */
export interface ModelCallEnd {
  outcome?: ModelCallOutcome;
  /** The request body the provider sent (object or JSON text). */
  requestBody?: unknown;
  streaming?: boolean;
  error?: unknown;
  /** Set when a stream ended before the provider finished it. */
  partial?: 'cancelled' | 'error' | 'abandoned';
}

/**
 * The span of one provider call (`doGenerate` / `doStream`, one per attempt). Request attributes are written
 * at the end, from the wire body the provider reports (the exact prompt the model saw), else from the AI
 * SDK's normalized prompt. Ending is idempotent: the first end wins.
 */
export class ModelCallSpan {
  private ended = false;
  readonly context: Context;

  private constructor(
    private readonly tracer: Tracer,
    readonly span: Span,
    private readonly start: ModelCallStart,
    private readonly options: ResolvedOptions,
    parent: Context,
  ) {
    this.context = trace.setSpan(parent, span);
  }

  static begin(
    tracer: Tracer,
    parent: Context,
    start: ModelCallStart,
    options: ResolvedOptions,
  ): ModelCallSpan {
    const provider = asString(start.event.provider) ?? 'unknown';
    const identity = modelSpanIdentity(provider, start.operationId, start.streaming, options);
    const span = tracer.startSpan(
      identity.name,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [GenAI.SYSTEM]: identity.system,
          [AiAttributes.OPERATION_ID]: start.operationId,
          [AiAttributes.MODEL_PROVIDER]: provider,
          [AiAttributes.MODEL_ID]: asString(start.event.modelId) ?? '',
          [AiAttributes.CALL_ID]: start.callId,
        },
      },
      parent,
    );
    return new ModelCallSpan(tracer, span, start, options, parent);
  }

  get isEnded(): boolean {
    return this.ended;
  }

  end(end: ModelCallEnd): void {
    if (this.ended) return;
    this.ended = true;
    safely('model call attributes', () => this.record(end), undefined);
    safely('model call span end', () => this.span.end(), undefined);
  }

  private record(end: ModelCallEnd): void {
    if (!this.span.isRecording()) return;
    const event = this.start.event;
    const captureInputs = event.recordInputs !== false;
    const captureOutputs = event.recordOutputs !== false;
    const bag = new AttributeBag();
    const body = parseJsonRecord(end.requestBody ?? requestBodyOfError(end.error));
    setRequestAttributes(bag, {
      wireBody: body && Array.isArray(body.messages) ? body : undefined,
      event,
      streaming: end.streaming ?? this.start.streaming,
      captureInputs,
    });
    if (end.outcome) setResponseAttributes(bag, end.outcome, captureOutputs);
    if (end.partial) {
      bag.set(ArclightAttributes.STREAM_PARTIAL, true);
      bag.set(ArclightAttributes.STREAM_END_REASON, end.partial);
    }
    this.span.setAttributes(bag.attributes);
    if (end.error !== undefined) recordError(this.span, end.error);
    else if (!end.partial) this.span.setStatus({ code: SpanStatusCode.OK });
    if (this.options.toolCallSpans && end.outcome)
      this.writeToolCallSpans(end.outcome, captureOutputs);
  }

  /** One child span per requested tool call, as AgentOps writes them (`TraceToMessages` reads these). */
  private writeToolCallSpans(outcome: ModelCallOutcome, captureOutputs: boolean): void {
    for (const call of outcome.toolCalls) {
      const child = this.tracer.startSpan(
        toolCallSpanName(call),
        { kind: SpanKind.INTERNAL, attributes: toolCallSpanAttributes(call, captureOutputs) },
        this.context,
      );
      child.setStatus({ code: SpanStatusCode.OK });
      child.end();
    }
  }
}

/** `APICallError.requestBodyValues`: the body of a request that failed. */
function requestBodyOfError(error: unknown): unknown {
  const record = asRecord(error);
  if (!record) return undefined;
  return record.requestBodyValues ?? asArray(record.errors).map(requestBodyOfError).find(Boolean);
}
