import { AttributeBag, asRecord, type JsonRecord, type OpenAIApiEndpoint } from '@arclight/core';
import {
  hasTokenIds,
  recordError,
  warnNoTokenIds,
  writeToolCallSpans,
} from '@arclight/instrumentation';
import { type Context, type Span, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { ArclightAttributes } from './attributes/keys.js';
import type { ResolvedOptions } from './options.js';
import { safely } from './safely.js';
import { INSTRUMENTATION_NAME } from './version.js';

/** Why a stream's span ended before the stream finished. */
export type PartialReason = 'abandoned' | 'aborted' | 'error' | 'garbage_collected';

/**
 * The span of one instrumented `create` call. Every ending method is idempotent: the first one wins, so
 * racing paths (request error, stream end, raw response, GC fallback) cannot end a span twice.
 */
export class CallRecorder {
  private ended = false;

  private constructor(
    private readonly tracer: Tracer,
    readonly span: Span,
    readonly endpoint: OpenAIApiEndpoint,
    private readonly options: ResolvedOptions,
    private readonly parent: Context,
  ) {}

  static start(
    tracer: Tracer,
    endpoint: OpenAIApiEndpoint,
    body: JsonRecord,
    options: ResolvedOptions,
    parent: Context,
  ): CallRecorder {
    const bag = new AttributeBag();
    safely('request attributes', () => endpoint.requestAttributes(body, options, bag), undefined);
    const span = tracer.startSpan(
      endpoint.spanName,
      { kind: SpanKind.CLIENT, attributes: bag.attributes },
      parent,
    );
    return new CallRecorder(tracer, span, endpoint, options, parent);
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** Records a (possibly partial) response and ends the span. */
  succeed(response: unknown, partial?: PartialReason): void {
    if (this.ended) return;
    this.ended = true;
    safely('response attributes', () => this.recordResponse(response, partial), undefined);
    safely('span end', () => this.span.end(), undefined);
  }

  /** Records the error (and whatever part of the response arrived), sets status ERROR, ends the span. */
  fail(error: unknown, partialResponse?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    if (partialResponse !== undefined) {
      safely('response attributes', () => this.recordResponse(partialResponse, 'error'), undefined);
    }
    safely('error attributes', () => recordError(this.span, error), undefined);
    safely('span end', () => this.span.end(), undefined);
  }

  /** The caller took the raw HTTP response (`asResponse()`): no body will be parsed. */
  endRaw(): void {
    if (this.ended) return;
    this.ended = true;
    safely(
      'span end',
      () => {
        this.span.setAttribute(ArclightAttributes.RAW_RESPONSE, true);
        this.span.end();
      },
      undefined,
    );
  }

  private recordResponse(response: unknown, partial: PartialReason | undefined): void {
    const record = asRecord(response);
    if (!record || !this.span.isRecording()) return;
    const bag = new AttributeBag();
    const calls = this.endpoint.responseAttributes(record, this.options, bag);
    if (partial) {
      bag.set(ArclightAttributes.STREAM_PARTIAL, true);
      bag.set(ArclightAttributes.STREAM_END_REASON, partial);
    }
    this.span.setAttributes(bag.attributes);
    const failure = this.endpoint.responseFailure(record);
    if (failure) this.span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
    else if (!partial && !hasTokenIds(bag.attributes)) this.warnNoTokenIds();
    if (this.options.toolCallSpans) {
      writeToolCallSpans(this.tracer, this.parent, this.span, calls, this.options.captureContent);
    }
  }

  private warnNoTokenIds(): void {
    warnNoTokenIds(
      INSTRUMENTATION_NAME,
      this.options.requestTokenIds
        ? 'the request asked for them (return_token_ids: true) but the server did not return them: serve ' +
            'the model with vLLM >= 0.10.2 (or another engine that returns prompt_token_ids and token_ids)'
        : "pass `requestTokenIds: true` (or 'auto') to instrumentOpenAI / OpenAIInstrumentation",
    );
  }
}
