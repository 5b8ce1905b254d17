import {
  type Attributes,
  type SpanCoreFields,
  type StatusCode,
  spanFromOtel,
  type TraceStatus,
} from '@arclight/core';
import { type Span as OtelSpan, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpanLike } from '../otel-types.js';
import { exceptionAttributes } from './exception-attributes.js';

/** What an operation records on its span while it runs (upstream `SpanRecordingContext`). */
export interface SpanRecording {
  recordAttributes(attributes: Attributes): void;
  /** Records the error (as an `exception` event, or attributes when local) and sets status ERROR. */
  recordException(error: unknown): void;
  recordStatus(code: StatusCode, description?: string | null): void;
  /** The span's core fields; complete once the span has ended. */
  getRecordedSpan(): SpanCoreFields;
}

const OTEL_CODES: Record<StatusCode, SpanStatusCode> = {
  UNSET: SpanStatusCode.UNSET,
  OK: SpanStatusCode.OK,
  ERROR: SpanStatusCode.ERROR,
};

export function toOtelStatus(status: TraceStatus): { code: SpanStatusCode; message?: string } {
  const code = OTEL_CODES[status.status_code];
  return status.description == null ? { code } : { code, message: status.description };
}

/** An error's message as Python's `str(exception)` would give it. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Core fields of an SDK span (which is also a `ReadableSpan`); `fallback` for a non-recording span. */
export function coreFieldsOf(span: OtelSpan, fallback: SpanCoreFields): SpanCoreFields {
  const readable = span as unknown as Partial<ReadableSpanLike>;
  if (!readable.attributes || !readable.startTime || typeof readable.spanContext !== 'function') {
    return fallback;
  }
  const full = spanFromOtel(readable as ReadableSpanLike, '', '', 0);
  return {
    name: full.name,
    status: full.status,
    attributes: full.attributes,
    start_time: full.start_time,
    end_time: full.end_time,
  };
}

/** Records onto a live OpenTelemetry span. */
export class OtelSpanRecording implements SpanRecording {
  private readonly local: LocalSpanRecording;

  constructor(
    readonly span: OtelSpan,
    name: string,
    attributes: Attributes,
  ) {
    this.local = new LocalSpanRecording(name, attributes, 'UNSET');
  }

  recordAttributes(attributes: Attributes): void {
    this.span.setAttributes(attributes);
    this.local.recordAttributes(attributes);
  }

  recordException(error: unknown): void {
    this.span.recordException(error instanceof Error ? error : String(error));
    this.recordStatus('ERROR', errorMessage(error));
  }

  recordStatus(code: StatusCode, description?: string | null): void {
    this.span.setStatus(toOtelStatus({ status_code: code, description: description ?? null }));
    this.local.recordStatus(code, description);
  }

  getRecordedSpan(): SpanCoreFields {
    this.local.finalize();
    return coreFieldsOf(this.span, this.local.getRecordedSpan());
  }
}

/**
 * Records locally without any tracer (upstream `DummySpanRecordingContext`, used with `propagate: false`):
 * status starts OK; an exception adds the `exception.*` attributes and sets status ERROR.
 */
export class LocalSpanRecording implements SpanRecording {
  private readonly attributes: Attributes;
  private status: TraceStatus;
  private readonly startTime = Date.now() / 1000;
  private endTime: number | null = null;

  constructor(
    private readonly name: string,
    attributes: Attributes,
    initialStatus: StatusCode = 'OK',
  ) {
    this.attributes = { ...attributes };
    this.status = { status_code: initialStatus, description: null };
  }

  recordAttributes(attributes: Attributes): void {
    Object.assign(this.attributes, attributes);
  }

  recordException(error: unknown): void {
    this.recordStatus('ERROR', errorMessage(error));
    this.recordAttributes(exceptionAttributes(error));
  }

  recordStatus(code: StatusCode, description?: string | null): void {
    this.status = { status_code: code, description: description ?? null };
  }

  finalize(): void {
    this.endTime ??= Date.now() / 1000;
  }

  getRecordedSpan(): SpanCoreFields {
    return {
      name: this.name,
      status: { ...this.status },
      attributes: { ...this.attributes },
      start_time: this.startTime,
      end_time: this.endTime,
    };
  }
}
