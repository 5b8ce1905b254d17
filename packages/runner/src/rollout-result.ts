import type { OtelSpanLike, Span, SpanCoreFields } from '@arclight/core';

/**
 * What a rollout may return (upstream `RolloutRawResult`):
 * - nothing (`undefined`/`null`) — the spans the tracer recorded during the rollout are the result;
 * - a number (or boolean, converted with a warning) — the final reward, stored as a reward span;
 * - Arclight `Span`s — stored as they are (`addSpan`);
 * - `SpanCoreFields` (what emitters return with `propagate: false`) — given sequence ids and stored;
 * - OpenTelemetry `ReadableSpan`s — stored with `addOtelSpan`.
 */
export type RolloutRawResult =
  | undefined
  | null
  // biome-ignore lint/suspicious/noConfusingVoidType: lets `async () => {}` agents type-check
  | void
  | number
  | boolean
  | Span[]
  | SpanCoreFields[]
  | OtelSpanLike[];

/** The kind of a list returned by a rollout, decided as upstream: every item must be of one kind. */
export type SpanListKind = 'otel' | 'span' | 'core' | 'empty' | 'mixed';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** An OpenTelemetry SDK span (anything with a `spanContext()` method). */
export function isOtelSpanLike(value: unknown): value is OtelSpanLike {
  return isRecord(value) && typeof value.spanContext === 'function';
}

/** An Arclight span: core fields plus rollout/attempt/sequence attribution and ids. */
export function isArclightSpan(value: unknown): value is Span {
  return (
    isSpanCoreFields(value) &&
    typeof value.rollout_id === 'string' &&
    typeof value.attempt_id === 'string' &&
    typeof value.sequence_id === 'number' &&
    typeof value.span_id === 'string' &&
    typeof value.trace_id === 'string'
  );
}

/** Emitter output: a name, a status and attributes (times may be null). */
export function isSpanCoreFields(
  value: unknown,
): value is SpanCoreFields & Record<string, unknown> {
  return (
    isRecord(value) &&
    typeof value.name === 'string' &&
    isRecord(value.status) &&
    isRecord(value.attributes) &&
    'start_time' in value &&
    'end_time' in value
  );
}

/** Classifies a returned list (upstream's order: ReadableSpan, then Span, then SpanCoreFields). */
export function classifySpanList(items: readonly unknown[]): SpanListKind {
  if (items.length === 0) return 'empty';
  if (items.every(isOtelSpanLike)) return 'otel';
  if (items.every(isArclightSpan)) return 'span';
  if (items.every(isSpanCoreFields)) return 'core';
  return 'mixed';
}

/** A short description of what each item of a list is, for error messages. */
export function describeItems(items: readonly unknown[]): string {
  return items
    .slice(0, 10)
    .map((item) => {
      if (item === null) return 'null';
      if (Array.isArray(item)) return 'array';
      if (typeof item === 'object') return item.constructor?.name ?? 'object';
      return typeof item;
    })
    .join(', ');
}
