import {
  AttributeBag,
  asArray,
  asRecord,
  asString,
  isInstrumented,
  type JsonRecord,
} from '@arclight/core';
import {
  expectLlmCall,
  hasTokenIds,
  type LlmCallClaim,
  warnNoTokenIds,
  warnUninstrumentedClient,
  writeToolCallSpans,
} from '@arclight/instrumentation';
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
import { modelSpanIdentity, uncountedName } from '../llm-call-span.js';
import type { ResolvedOptions } from '../options.js';
import { safely } from '../safely.js';
import { INSTRUMENTATION_NAME } from '../version.js';
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
  /** `llmCallSpan: 'auto'`: taken by an instrumented client that records this call itself. */
  private readonly claim: LlmCallClaim | undefined;

  private constructor(
    private readonly tracer: Tracer,
    readonly span: Span,
    private readonly start: ModelCallStart,
    private readonly options: ResolvedOptions,
    parent: Context,
    private counted: boolean,
  ) {
    this.context = trace.setSpan(parent, span);
    // The provider call runs in `context`: a client instrumented there claims the call.
    this.claim =
      counted && options.llmCallSpan === 'auto'
        ? expectLlmCall(this.context, asString(start.event.modelId))
        : undefined;
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
    return new ModelCallSpan(tracer, span, start, options, parent, identity.counted);
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

  /** Settles an 'auto' span: claimed by an instrumented client — not the LLM call (renamed). */
  private settleClaim(): void {
    if (!this.claim) return;
    if (this.claim.close()) {
      this.counted = false;
      this.span.updateName(uncountedName(this.start.operationId, this.start.streaming));
    } else if (
      isInstrumented('openai') &&
      this.options.openaiClientProviders?.test(asString(this.start.event.provider) ?? '')
    ) {
      warnUninstrumentedClient(
        `the AI SDK provider ${String(this.start.event.provider)}`,
        'openai',
      );
    }
  }

  private record(end: ModelCallEnd): void {
    safely('llm-call claim', () => this.settleClaim(), undefined);
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
    if (this.counted && end.error === undefined && !end.partial && !hasTokenIds(bag.attributes)) {
      warnNoTokenIds(
        INSTRUMENTATION_NAME,
        'wrap the model with `withArclight(model)` (token-id middleware), and for @ai-sdk/openai create ' +
          'the provider with `fetch: tokenIdsFetch()`',
      );
    }
    if (end.error !== undefined) recordError(this.span, end.error);
    else if (!end.partial) this.span.setStatus({ code: SpanStatusCode.OK });
    if (this.options.toolCallSpans && end.outcome) {
      writeToolCallSpans(
        this.tracer,
        this.context,
        this.span,
        end.outcome.toolCalls,
        captureOutputs,
      );
    }
  }
}

/** `APICallError.requestBodyValues`: the body of a request that failed. */
function requestBodyOfError(error: unknown): unknown {
  const record = asRecord(error);
  if (!record) return undefined;
  return record.requestBodyValues ?? asArray(record.errors).map(requestBodyOfError).find(Boolean);
}
