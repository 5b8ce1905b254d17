import { generateSpanId, generateTraceId } from '../ids.js';
import { AGL_VIRTUAL } from '../semconv.js';
import type { Attributes, OtelResource, Span, SpanCoreFields, TraceStatus } from '../types/span.js';

/** Fields of {@link createSpan}; everything but `attributes` is optional. */
export interface CreateSpanFields {
  attributes: Attributes;
  rollout_id?: string | null;
  attempt_id?: string | null;
  sequence_id?: number | null;
  /** Defaults to `"agentlightning.virtual"`. */
  name?: string | null;
  /** Defaults to a random valid trace id. */
  trace_id?: string | null;
  /** Defaults to a random valid span id. */
  span_id?: string | null;
  parent_id?: string | null;
  /** Epoch seconds; omitted → now. `null` is kept. */
  start_time?: number | null;
  /** Epoch seconds; omitted → `start_time`. `null` is kept. */
  end_time?: number | null;
  resource?: OtelResource | null;
  /** Defaults to `{status_code: "OK", description: null}`. */
  status?: TraceStatus | null;
}

const nowSeconds = (): number => Date.now() / 1000;

/**
 * A synthetic span built from raw attributes (upstream `Span.from_attributes`): random trace/span ids, name
 * `"agentlightning.virtual"`, status OK, a context of its own ids and, when `parent_id` is given, a parent
 * context in the same trace. Unlike upstream, omitted times default to now (explicit `null` stays `null`).
 */
export function createSpan(fields: CreateSpanFields): Span {
  const traceId = fields.trace_id || generateTraceId();
  const spanId = fields.span_id || generateSpanId();
  const parentId = fields.parent_id || null;
  const startTime = fields.start_time === undefined ? nowSeconds() : fields.start_time;
  const endTime = fields.end_time === undefined ? startTime : fields.end_time;
  return {
    rollout_id: fields.rollout_id || '',
    attempt_id: fields.attempt_id || '',
    sequence_id: fields.sequence_id || 0,
    trace_id: traceId,
    span_id: spanId,
    parent_id: parentId,
    name: fields.name || AGL_VIRTUAL,
    status: fields.status ? { ...fields.status } : { status_code: 'OK', description: null },
    attributes: { ...fields.attributes },
    events: [],
    links: [],
    start_time: startTime,
    end_time: endTime,
    context: { trace_id: traceId, span_id: spanId, is_remote: false, trace_state: {} },
    parent: parentId
      ? { trace_id: traceId, span_id: parentId, is_remote: false, trace_state: {} }
      : null,
    resource: fields.resource
      ? { ...fields.resource, attributes: { ...fields.resource.attributes } }
      : { attributes: {}, schema_url: '' },
  };
}

/** Ids for {@link spanFromCoreFields}; omitted ones become `""` / `0` as upstream. */
export interface SpanAttribution {
  rollout_id?: string | null;
  attempt_id?: string | null;
  sequence_id?: number | null;
}

/**
 * Upstream `Span.from_core_fields`: a span from what an emitter recorded. A missing (or zero) start time
 * becomes now; the end time is taken as given.
 */
export function spanFromCoreFields(core: SpanCoreFields, attribution: SpanAttribution = {}): Span {
  return createSpan({
    ...attribution,
    attributes: core.attributes,
    name: core.name,
    start_time: core.start_time || nowSeconds(),
    end_time: core.end_time,
    status: core.status,
  });
}
