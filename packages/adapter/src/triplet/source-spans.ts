import { type OtelSpanLike, type Span, spanFromOtel } from '@arclight/core';

/** What `TraceToTriplet` accepts: stored spans, or OpenTelemetry `ReadableSpan`s (as upstream does). */
export type TraceSource = readonly (Span | OtelSpanLike)[];

const isOtelSpan = (span: Span | OtelSpanLike): span is OtelSpanLike =>
  typeof (span as OtelSpanLike).spanContext === 'function';

/** Upstream: `ReadableSpan`s become spans with rollout/attempt `"dummy"` and sequence id 0. */
export function toStoredSpans(source: TraceSource): readonly Span[] {
  if (!source.some(isOtelSpan)) return source as readonly Span[];
  return source.map((span) => (isOtelSpan(span) ? spanFromOtel(span, 'dummy', 'dummy', 0) : span));
}
