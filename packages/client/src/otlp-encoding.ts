import type { Attributes, OtelResource, Span, SpanContext } from '@arclight/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';

/** Span attributes that attribute an OTLP span to a rollout, attempt and sequence id (upstream semconv). */
export const ROLLOUT_ID_ATTRIBUTE = 'agentlightning.rollout_id';
export const ATTEMPT_ID_ATTRIBUTE = 'agentlightning.attempt_id';
export const SPAN_SEQUENCE_ID_ATTRIBUTE = 'agentlightning.span_sequence_id';

export const OTLP_PROTOBUF_CONTENT_TYPE = 'application/x-protobuf';

/** What the serializer reads of an SDK `ReadableSpan`; the adapters below provide exactly that. */
type SerializerSpan = Parameters<typeof ProtobufTraceSerializer.serializeRequest>[0][number];

type HrTime = [number, number];

interface ContextAdapter {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote: boolean;
  traceState: { serialize(): string } | undefined;
}

const SAMPLED = 1;
const SCOPE = { name: 'arclight.client' };
const HEX_TRACE_ID = /^[0-9a-f]{32}$/;
const HEX_SPAN_ID = /^[0-9a-f]{16}$/;

/**
 * Whether a span can travel through OTLP: its trace/span/parent/link ids must be lowercase hex of OTLP's
 * widths (ids are bytes in OTLP). Other spans must go through `POST /v1/agl/spans`.
 */
export function isOtlpEncodable(span: Span): boolean {
  if (!HEX_TRACE_ID.test(span.trace_id) || !HEX_SPAN_ID.test(span.span_id)) return false;
  if (span.parent_id != null && !HEX_SPAN_ID.test(span.parent_id)) return false;
  return span.links.every(
    (link) => HEX_TRACE_ID.test(link.context.trace_id) && HEX_SPAN_ID.test(link.context.span_id),
  );
}

/**
 * Encodes spans as an OTLP/HTTP protobuf `ExportTraceServiceRequest`. Each span carries its rollout id,
 * attempt id and sequence id as span attributes, which both Arclight's and upstream's `/v1/traces` read.
 */
export function encodeSpansAsOtlp(spans: readonly Span[]): Uint8Array {
  const resources = new Map<string, { attributes: Attributes; schemaUrl: string | undefined }>();
  const adapted = spans.map((span) => {
    const resourceKey = JSON.stringify([span.resource.attributes, span.resource.schema_url]);
    let resource = resources.get(resourceKey);
    if (!resource) {
      resource = toResource(span.resource);
      resources.set(resourceKey, resource);
    }
    return toSerializerSpan(span, resource);
  });
  const bytes = ProtobufTraceSerializer.serializeRequest(adapted as unknown as SerializerSpan[]);
  if (!bytes) throw new Error('OTLP serializer produced no bytes');
  return bytes;
}

/** The `partial_success` of an `ExportTraceServiceResponse` (all zero/empty when absent). */
export function decodeOtlpResponse(body: Uint8Array): {
  rejectedSpans: number;
  errorMessage: string;
} {
  if (body.length === 0) return { rejectedSpans: 0, errorMessage: '' };
  const response = ProtobufTraceSerializer.deserializeResponse(body);
  const partial = response.partialSuccess;
  return {
    rejectedSpans: Number(partial?.rejectedSpans ?? 0),
    errorMessage: partial?.errorMessage ?? '',
  };
}

function toResource(resource: OtelResource): {
  attributes: Attributes;
  schemaUrl: string | undefined;
} {
  return { attributes: resource.attributes, schemaUrl: resource.schema_url || undefined };
}

function toSerializerSpan(span: Span, resource: object) {
  const context = toContext(span.trace_id, span.span_id, span.context);
  const parent =
    span.parent_id != null
      ? toContext(span.parent?.trace_id ?? span.trace_id, span.parent_id, span.parent)
      : undefined;
  return {
    name: span.name,
    kind: undefined,
    spanContext: () => context,
    parentSpanContext: parent,
    startTime: toHrTime(span.start_time),
    endTime: toHrTime(span.end_time),
    status: {
      code: statusCode(span.status.status_code),
      message: span.status.description ?? undefined,
    },
    attributes: {
      ...span.attributes,
      [ROLLOUT_ID_ATTRIBUTE]: span.rollout_id,
      [ATTEMPT_ID_ATTRIBUTE]: span.attempt_id,
      [SPAN_SEQUENCE_ID_ATTRIBUTE]: span.sequence_id,
    },
    events: span.events.map((event) => ({
      name: event.name,
      time: toHrTime(event.timestamp),
      attributes: event.attributes,
      droppedAttributesCount: 0,
    })),
    links: span.links.map((link) => ({
      context: toContext(link.context.trace_id, link.context.span_id, link.context),
      attributes: link.attributes ?? undefined,
      droppedAttributesCount: 0,
    })),
    resource,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

function toContext(traceId: string, spanId: string, source: SpanContext | null): ContextAdapter {
  const state = source?.trace_state ?? {};
  const entries = Object.entries(state);
  return {
    traceId,
    spanId,
    traceFlags: SAMPLED,
    isRemote: source?.is_remote ?? false,
    traceState:
      entries.length > 0
        ? { serialize: () => entries.map(([key, value]) => `${key}=${value}`).join(',') }
        : undefined,
  };
}

/** Epoch seconds → OTLP `[seconds, nanoseconds]`; a missing time becomes 0, which readers map back to null. */
function toHrTime(seconds: number | null): HrTime {
  if (seconds == null || !Number.isFinite(seconds) || seconds <= 0) return [0, 0];
  const whole = Math.floor(seconds);
  let nanos = Math.round((seconds - whole) * 1e9);
  if (nanos >= 1e9) return [whole + 1, nanos - 1e9];
  if (nanos < 0) nanos = 0;
  return [whole, nanos];
}

function statusCode(code: Span['status']['status_code']): number {
  return code === 'OK' ? 1 : code === 'ERROR' ? 2 : 0;
}
