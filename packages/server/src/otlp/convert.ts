import type { Attributes, Span, SpanContext, StatusCode } from '@arclight/core';
import type { OtlpAttributes, OtlpJsonValue, OtlpResourceSpans, OtlpSpan } from './model.js';
import { nanosToSeconds } from './values.js';

/** Resource (or span) attributes that attribute a span to a rollout attempt (`semconv.py`). */
export const ROLLOUT_ID_ATTRIBUTE = 'agentlightning.rollout_id';
export const ATTEMPT_ID_ATTRIBUTE = 'agentlightning.attempt_id';
export const SPAN_SEQUENCE_ID_ATTRIBUTE = 'agentlightning.span_sequence_id';

const STATUS_CODES: Record<number, StatusCode> = { 0: 'UNSET', 1: 'OK', 2: 'ERROR' };

export interface ConvertedOtlpSpans {
  /** Attributed spans; `sequence_id` is `-1` where the store must allocate one. */
  spans: Span[];
  /** Spans dropped because they carry no rollout id or no attempt id. */
  unattributed: number;
}

/**
 * Upstream `spans_from_proto` minus sequence-id allocation: rollout/attempt/sequence ids come from the resource
 * attributes, overridden by the span's own attributes; spans lacking a rollout or attempt id are counted and
 * dropped; a missing, non-integer or negative sequence id becomes `-1`.
 */
export function otlpToSpans(resourceSpansList: OtlpResourceSpans[]): ConvertedOtlpSpans {
  const spans: Span[] = [];
  let unattributed = 0;
  for (const resourceSpans of resourceSpansList) {
    const resourceAttributes = resourceSpans.resourceAttributes;
    const resource = {
      attributes: resourceAttributes as Attributes,
      schema_url: resourceSpans.schemaUrl,
    };
    for (const otlpSpan of resourceSpans.spans) {
      const own = otlpSpan.attributes;
      const rolloutId = idString(pick(own, resourceAttributes, ROLLOUT_ID_ATTRIBUTE));
      const attemptId = idString(pick(own, resourceAttributes, ATTEMPT_ID_ATTRIBUTE));
      if (rolloutId === null || attemptId === null) {
        unattributed += 1;
        continue;
      }
      const sequenceId = sequenceNumber(pick(own, resourceAttributes, SPAN_SEQUENCE_ID_ATTRIBUTE));
      spans.push(toSpan(otlpSpan, rolloutId, attemptId, sequenceId, resource));
    }
  }
  return { spans, unattributed };
}

/** The span's own attribute, else the resource's. */
const pick = (
  own: OtlpAttributes,
  resource: OtlpAttributes,
  key: string,
): OtlpJsonValue | undefined => own[key] ?? resource[key] ?? undefined;

function toSpan(
  otlpSpan: OtlpSpan,
  rolloutId: string,
  attemptId: string,
  sequenceId: number,
  resource: Span['resource'],
): Span {
  return {
    rollout_id: rolloutId,
    attempt_id: attemptId,
    sequence_id: sequenceId,
    trace_id: otlpSpan.traceId,
    span_id: otlpSpan.spanId,
    parent_id: otlpSpan.parentSpanId,
    name: otlpSpan.name,
    status: {
      status_code: STATUS_CODES[otlpSpan.statusCode] ?? 'UNSET',
      description: otlpSpan.statusMessage === '' ? null : otlpSpan.statusMessage,
    },
    attributes: otlpSpan.attributes as Attributes,
    // The decoder's arrays are the span's own: an empty one is handed over instead of mapped into a copy.
    events:
      otlpSpan.events.length === 0
        ? (otlpSpan.events as [])
        : otlpSpan.events.map((event) => ({
            name: event.name,
            attributes: event.attributes as Attributes,
            timestamp: nanosToSeconds(event.timeUnixNano),
          })),
    links:
      otlpSpan.links.length === 0
        ? (otlpSpan.links as [])
        : otlpSpan.links.map((link) => ({
            context: context(link.traceId, link.spanId),
            attributes: isEmpty(link.attributes) ? null : (link.attributes as Attributes),
          })),
    start_time: nanosToSeconds(otlpSpan.startTimeUnixNano),
    end_time: nanosToSeconds(otlpSpan.endTimeUnixNano),
    context: context(otlpSpan.traceId, otlpSpan.spanId),
    parent: null,
    resource,
  };
}

const context = (traceId: string, spanId: string): SpanContext => ({
  trace_id: traceId,
  span_id: spanId,
  is_remote: false,
  trace_state: {},
});

const isEmpty = (attributes: OtlpAttributes): boolean => Object.keys(attributes).length === 0;

/** Upstream `str(value)` for ids: strings as-is, numbers and booleans stringified, anything else missing. */
function idString(value: OtlpJsonValue | undefined): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return null;
}

/** Upstream `int(str(value))`; missing, unparsable or negative → -1 (allocate one). */
function sequenceNumber(value: OtlpJsonValue | undefined): number {
  let n: number | undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value)) n = value;
  else if (typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value)) n = Number(value.trim());
  return n !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : -1;
}
