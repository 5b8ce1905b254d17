import type { OtelSpanLike } from '@arclight/core';

/**
 * What Arclight reads of a finished OpenTelemetry SDK span. Structural, so spans of SDK 1.x, 2.x and 3.x
 * providers are all accepted (1.x has `parentSpanId`/`instrumentationLibrary`, 2.x+ `parentSpanContext`/
 * `instrumentationScope`).
 */
export interface ReadableSpanLike extends OtelSpanLike {
  kind?: number;
  instrumentationScope?: InstrumentationScopeLike;
  /** SDK 1.x */
  instrumentationLibrary?: InstrumentationScopeLike;
  droppedAttributesCount?: number;
  droppedEventsCount?: number;
  droppedLinksCount?: number;
}

export interface InstrumentationScopeLike {
  name: string;
  version?: string | undefined;
  schemaUrl?: string | undefined;
}

/**
 * The SDK `SpanProcessor` contract, typed loosely enough that one processor object can be handed to SDK 1.x,
 * 2.x and 3.x tracer providers.
 */
export interface SpanProcessorLike {
  onStart(span: object, parentContext?: unknown): void;
  /** Receives the SDK's `ReadableSpan` (read as {@link ReadableSpanLike}). */
  onEnd(span: object): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** Whether the span was sampled (W3C trace flag bit 0); unsampled spans are never exported, as upstream. */
export function isSampled(span: OtelSpanLike): boolean {
  const flags = span.spanContext().traceFlags;
  return flags === undefined || (flags & 1) === 1;
}
