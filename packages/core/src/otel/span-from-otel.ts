import { isAttributeValue } from '../schemas/common.js';
import { convertTimestamp } from '../spans/timestamp.js';
import type { Attributes, Span, SpanContext, StatusCode } from '../types/span.js';
import type {
  HrTime,
  OtelAttributeValue,
  OtelSpanContextLike,
  OtelSpanLike,
} from './otel-span-like.js';

const STATUS_CODE_NAMES: Record<number, StatusCode> = { 0: 'UNSET', 1: 'OK', 2: 'ERROR' };

/** OpenTelemetry `HrTime` (`[seconds, nanoseconds]`) as float epoch seconds. */
export const hrTimeToSeconds = (time: HrTime): number => time[0] + time[1] / 1e9;

/** A trace id as upstream `format_trace_id` prints it: 32 lowercase hex characters. */
export const formatTraceId = (id: string): string => id.toLowerCase().padStart(32, '0');
/** A span id as upstream `format_span_id` prints it: 16 lowercase hex characters. */
export const formatSpanId = (id: string): string => id.toLowerCase().padStart(16, '0');

/** Parses a W3C `tracestate` header value (`k1=v1,k2=v2`) into a key → value map. */
export function parseTraceState(serialized: string): Record<string, string> {
  const state: Record<string, string> = {};
  for (const member of serialized.split(',')) {
    const eq = member.indexOf('=');
    if (eq <= 0) continue;
    state[member.slice(0, eq).trim()] = member.slice(eq + 1).trim();
  }
  return state;
}

/** Upstream `SpanContext.from_opentelemetry`. */
export function spanContextFromOtel(context: OtelSpanContextLike): SpanContext {
  const serialized = context.traceState?.serialize() ?? '';
  return {
    trace_id: formatTraceId(context.traceId),
    span_id: formatSpanId(context.spanId),
    is_remote: context.isRemote ?? false,
    trace_state: serialized === '' ? {} : parseTraceState(serialized),
  };
}

/**
 * Copies OpenTelemetry attributes into wire attributes. `undefined` values and `null`/`undefined` array
 * items (which OpenTelemetry JS tolerates but the wire model does not) are dropped, as are values that are
 * not attribute values at all.
 */
export function attributesFromOtel(
  attributes: Readonly<Record<string, OtelAttributeValue | unknown>> | undefined,
): Attributes {
  const out: Attributes = {};
  if (!attributes) return out;
  for (const key of Object.keys(attributes)) {
    let value = attributes[key];
    if (Array.isArray(value) && value.some((item) => item == null)) {
      value = value.filter((item) => item != null);
    }
    if (isAttributeValue(value)) out[key] = Array.isArray(value) ? [...value] : value;
  }
  return out;
}

function parentContextOf(span: OtelSpanLike, context: SpanContext): SpanContext | null {
  if (span.parentSpanContext) return spanContextFromOtel(span.parentSpanContext);
  // SDK 1.x exposes only the parent span id; the parent shares the trace of its child.
  if (span.parentSpanId) {
    return {
      trace_id: context.trace_id,
      span_id: formatSpanId(span.parentSpanId),
      is_remote: false,
      trace_state: {},
    };
  }
  return null;
}

/**
 * Upstream `Span.from_opentelemetry`: converts a finished OpenTelemetry SDK span (`ReadableSpan`) into the
 * wire model, attributing it to `rolloutId`/`attemptId` at position `sequenceId`. Ids become lowercase hex,
 * `HrTime`s float epoch seconds (zero → `null`), status codes 0/1/2 → `UNSET`/`OK`/`ERROR`.
 */
export function spanFromOtel(
  readable: OtelSpanLike,
  rolloutId: string,
  attemptId: string,
  sequenceId: number,
): Span {
  const context = spanContextFromOtel(readable.spanContext());
  const parent = parentContextOf(readable, context);
  const resource = readable.resource;
  return {
    rollout_id: rolloutId,
    attempt_id: attemptId,
    sequence_id: sequenceId,
    trace_id: context.trace_id,
    span_id: context.span_id,
    parent_id: parent ? parent.span_id : null,
    name: readable.name,
    status: {
      status_code: STATUS_CODE_NAMES[readable.status.code] ?? 'UNSET',
      description: readable.status.message ?? null,
    },
    attributes: attributesFromOtel(readable.attributes),
    events: readable.events.map((event) => ({
      name: event.name,
      attributes: attributesFromOtel(event.attributes),
      timestamp: convertTimestamp(hrTimeToSeconds(event.time)),
    })),
    links: readable.links.map((link) => {
      const attributes = attributesFromOtel(link.attributes);
      return {
        context: spanContextFromOtel(link.context),
        attributes: Object.keys(attributes).length > 0 ? attributes : null,
      };
    }),
    start_time: convertTimestamp(hrTimeToSeconds(readable.startTime)),
    end_time: convertTimestamp(hrTimeToSeconds(readable.endTime)),
    context,
    parent,
    resource: {
      attributes: attributesFromOtel(resource.attributes),
      schema_url: resource.schemaUrl ?? '',
    },
  };
}
