import type { Attributes, OtelResource, Span, SpanContext } from '@arclight/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { OtlpWriter } from './otlp-writer.js';

/** Span attributes that attribute an OTLP span to a rollout, attempt and sequence id (upstream semconv). */
export const ROLLOUT_ID_ATTRIBUTE = 'agentlightning.rollout_id';
export const ATTEMPT_ID_ATTRIBUTE = 'agentlightning.attempt_id';
export const SPAN_SEQUENCE_ID_ATTRIBUTE = 'agentlightning.span_sequence_id';

export const OTLP_PROTOBUF_CONTENT_TYPE = 'application/x-protobuf';

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
 * Spans are grouped by resource (attributes and schema URL) under one scope, `arclight.client`. The bytes
 * are those @opentelemetry/otlp-transformer's `ProtobufTraceSerializer` writes for the same spans (field
 * order, defaults written or left out; test/otlp-encoding.test.ts compares them), in one pass.
 */
export function encodeSpansAsOtlp(spans: readonly Span[]): Uint8Array {
  const groups = new Map<string, { resource: OtelResource; spans: Span[] }>();
  for (const span of spans) {
    const key = JSON.stringify([span.resource.attributes, span.resource.schema_url]);
    const group = groups.get(key);
    if (group) group.spans.push(span);
    else groups.set(key, { resource: span.resource, spans: [span] });
  }
  const w = writer;
  w.reset();
  for (const { resource, spans: members } of groups.values()) {
    w.tag(1, 2); // ExportTraceServiceRequest.resource_spans
    const resourceSpans = w.open();
    w.tag(1, 2); // ResourceSpans.resource
    const resourceStart = w.open();
    writeAttributes(w, resource.attributes, 1);
    w.varintField(2, 0); // Resource.dropped_attributes_count
    w.close(resourceStart);
    w.tag(2, 2); // ResourceSpans.scope_spans
    const scopeSpans = w.open();
    w.tag(1, 2); // ScopeSpans.scope
    const scope = w.open();
    w.stringField(1, SCOPE_NAME);
    w.close(scope);
    for (const span of members) {
      w.tag(2, 2); // ScopeSpans.spans
      writeSpan(w, span);
    }
    w.close(scopeSpans);
    if (resource.schema_url) {
      w.stringField(3, resource.schema_url); // ResourceSpans.schema_url
    }
    w.close(resourceSpans);
  }
  return w.finish();
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

const writer = new OtlpWriter();
const SCOPE_NAME = 'arclight.client';
/** W3C trace flags of every span: sampled. */
const SAMPLED = 1;
/** OTLP `SpanFlags`: the context's is_remote is known (bit 8) and set (bit 9). */
const HAS_IS_REMOTE = 0x100;
const IS_REMOTE = 0x200;
const ID_ATTRIBUTES = [ROLLOUT_ID_ATTRIBUTE, ATTEMPT_ID_ATTRIBUTE, SPAN_SEQUENCE_ID_ATTRIBUTE];

function writeSpan(w: OtlpWriter, span: Span): void {
  const start = w.open();
  w.tag(1, 2);
  w.hexBytes(span.trace_id);
  w.tag(2, 2);
  w.hexBytes(span.span_id);
  writeTraceState(w, 3, span.context);
  if (span.parent_id) {
    w.tag(4, 2);
    w.hexBytes(span.parent_id);
  }
  w.stringField(5, span.name);
  w.tag(7, 1);
  writeTime(w, span.start_time);
  w.tag(8, 1);
  writeTime(w, span.end_time);
  // The span's attributes, then its ids (an attribute of the same name keeps its place, with the id's value).
  const ids = [span.rollout_id, span.attempt_id, span.sequence_id];
  const attributes = span.attributes;
  let present = 0;
  for (const key in attributes) {
    if (!Object.hasOwn(attributes, key)) continue;
    const id = ID_ATTRIBUTES.indexOf(key);
    if (id >= 0) present |= 1 << id;
    writeKeyValue(w, 9, key, id >= 0 ? ids[id] : attributes[key]);
  }
  for (let id = 0; id < ID_ATTRIBUTES.length; id++) {
    if (!(present & (1 << id))) writeKeyValue(w, 9, ID_ATTRIBUTES[id]!, ids[id]);
  }
  w.varintField(10, 0);
  for (const event of span.events) {
    w.tag(11, 2);
    const eventStart = w.open();
    w.tag(1, 1);
    writeTime(w, event.timestamp);
    w.stringField(2, event.name);
    if (event.attributes) writeAttributes(w, event.attributes, 3);
    w.varintField(4, 0);
    w.close(eventStart);
  }
  w.varintField(12, 0);
  for (const link of span.links) {
    w.tag(13, 2);
    const linkStart = w.open();
    w.tag(1, 2);
    w.hexBytes(link.context.trace_id);
    w.tag(2, 2);
    w.hexBytes(link.context.span_id);
    writeTraceState(w, 3, link.context);
    if (link.attributes) writeAttributes(w, link.attributes, 4);
    w.varintField(5, 0);
    w.tag(6, 5);
    w.fixed32(spanFlags(link.context.is_remote));
    w.close(linkStart);
  }
  w.varintField(14, 0);
  w.tag(15, 2);
  const status = w.open();
  if (span.status.description) {
    w.stringField(2, span.status.description);
  }
  w.varintField(3, statusCode(span.status.status_code));
  w.close(status);
  w.tag(16, 5);
  w.fixed32(spanFlags(span.parent_id != null ? (span.parent?.is_remote ?? false) : false));
  w.close(start);
}

function spanFlags(isRemote: boolean | undefined): number {
  return SAMPLED | HAS_IS_REMOTE | (isRemote ? IS_REMOTE : 0);
}

/** `key=value` pairs joined by commas, when the context has any. */
function writeTraceState(w: OtlpWriter, field: number, context: SpanContext | null): void {
  const state = context?.trace_state;
  if (!state) return;
  let text = '';
  for (const [key, value] of Object.entries(state)) text += `${text ? ',' : ''}${key}=${value}`;
  if (!text) return;
  w.tag(field, 2);
  w.string(text);
}

function writeAttributes(w: OtlpWriter, attributes: Attributes, field: number): void {
  for (const key in attributes) {
    if (Object.hasOwn(attributes, key)) writeKeyValue(w, field, key, attributes[key]);
  }
}

function writeKeyValue(w: OtlpWriter, field: number, key: string, value: unknown): void {
  w.tag(field, 2);
  const start = w.open();
  w.stringField(1, key);
  w.tag(2, 2);
  const valueStart = w.open();
  writeAnyValue(w, value);
  w.close(valueStart);
  w.close(start);
}

const INT64_MIN = -(2 ** 63);
const INT64_LIMIT = 2 ** 63;

/** An `AnyValue`'s content; `null`/`undefined` leave it empty. */
function writeAnyValue(w: OtlpWriter, value: unknown): void {
  switch (typeof value) {
    case 'string':
      w.stringField(1, value);
      return;
    case 'boolean':
      w.varintField(2, value ? 1 : 0);
      return;
    case 'number':
      if (Number.isInteger(value) && value >= INT64_MIN && value < INT64_LIMIT) {
        w.tag(3, 0);
        w.int64(value);
      } else {
        w.tag(4, 1);
        w.double(value);
      }
      return;
  }
  if (value instanceof Uint8Array) {
    w.tag(7, 2);
    w.bytes(value);
  } else if (Array.isArray(value)) {
    w.tag(5, 2);
    const list = w.open();
    for (const item of value) {
      w.tag(1, 2);
      const itemStart = w.open();
      writeAnyValue(w, item);
      w.close(itemStart);
    }
    w.close(list);
  } else if (value !== null && typeof value === 'object') {
    w.tag(6, 2);
    const map = w.open();
    const entries = value as Record<string, unknown>;
    for (const key in entries) {
      if (Object.hasOwn(entries, key)) writeKeyValue(w, 1, key, entries[key]);
    }
    w.close(map);
  }
}

/** Epoch seconds as fixed64 nanoseconds; a missing time becomes 0, which readers map back to null. */
function writeTime(w: OtlpWriter, seconds: number | null): void {
  const [whole, nanos] = toHrTime(seconds);
  w.fixed64Nanos(whole, nanos);
}

/** Epoch seconds → OTLP `[seconds, nanoseconds]`; a missing time becomes 0, which readers map back to null. */
function toHrTime(seconds: number | null): [number, number] {
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
