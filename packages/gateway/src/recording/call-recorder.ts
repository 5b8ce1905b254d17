import {
  AttributeBag,
  type AttributeRecord,
  type JsonRecord,
  type OpenAIApiEndpoint,
  toolCallSpanAttributes,
  toolCallSpanName,
} from '@arclight/core';
import {
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';

/** Attributes only the gateway writes (next to the `@arclight/instrumentation-openai` layout). */
export const GatewayAttributes = Object.freeze({
  /** `true` when a stream ended before the backend finished it (the span carries what arrived). */
  STREAM_PARTIAL: 'arclight.stream.partial',
  /** Why a partial stream ended: `abandoned` (client went away), `timeout`, `error`. */
  STREAM_END_REASON: 'arclight.stream.end_reason',
  /** Which backend served the call (its base URL; never its key). */
  BACKEND: 'arclight.gateway.backend',
  /** The API the client called when it is not OpenAI's (`anthropic.messages`). */
  CLIENT_API: 'arclight.gateway.client_api',
  /** Backend attempts the call took (1 = no retry). */
  ATTEMPTS: 'arclight.gateway.attempts',
  HTTP_STATUS: 'http.response.status_code',
  ERROR_TYPE: 'error.type',
} as const);

/** The gateway records prompts and completions whole (it has no content switch). */
const CONTENT = { captureContent: true } as const;

export type PartialReason = 'abandoned' | 'timeout' | 'error';

/** The span of one recorded call; every ending method is idempotent (the first one wins). */
export class CallRecorder {
  private ended = false;

  private constructor(
    private readonly tracer: Tracer,
    private readonly span: Span,
    private readonly endpoint: OpenAIApiEndpoint,
  ) {}

  static start(
    tracer: Tracer,
    endpoint: OpenAIApiEndpoint,
    body: JsonRecord,
    extra: AttributeRecord,
  ): CallRecorder {
    const bag = new AttributeBag();
    try {
      endpoint.requestAttributes(body, CONTENT, bag);
    } catch {
      // A request the writers cannot read is still recorded, with the gateway's own attributes.
    }
    const attributes = { ...bag.attributes, ...extra };
    const span = tracer.startSpan(
      endpoint.spanName,
      { kind: SpanKind.CLIENT, attributes },
      context.active(),
    );
    return new CallRecorder(tracer, span, endpoint);
  }

  setAttributes(attributes: AttributeRecord): void {
    if (!this.ended) this.span.setAttributes(attributes);
  }

  /** Records a (possibly partial) response and ends the span. */
  succeed(response: JsonRecord, partial?: PartialReason): void {
    if (this.ended) return;
    this.ended = true;
    try {
      const bag = new AttributeBag();
      const toolCalls = this.endpoint.responseAttributes(response, CONTENT, bag);
      this.span.setAttributes(bag.attributes);
      if (partial) {
        this.span.setAttribute(GatewayAttributes.STREAM_PARTIAL, true);
        this.span.setAttribute(GatewayAttributes.STREAM_END_REASON, partial);
      }
      const parent = trace.setSpan(context.active(), this.span);
      for (const call of toolCalls) {
        const child = this.tracer.startSpan(
          toolCallSpanName(call),
          { kind: SpanKind.INTERNAL, attributes: toolCallSpanAttributes(call, true) },
          parent,
        );
        child.setStatus({ code: SpanStatusCode.OK });
        child.end();
      }
      this.span.setStatus({ code: SpanStatusCode.OK });
    } finally {
      this.span.end();
    }
  }

  /** Records an error (the backend's status, or a transport failure) and ends the span. */
  fail(message: string, type: string, status?: number): void {
    if (this.ended) return;
    this.ended = true;
    this.span.setAttribute(GatewayAttributes.ERROR_TYPE, type);
    if (status !== undefined) this.span.setAttribute(GatewayAttributes.HTTP_STATUS, status);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message });
    this.span.end();
  }
}
