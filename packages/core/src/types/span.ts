/** Span model of Agent Lightning v0.x `types/tracer.py`. Unknown keys are preserved (upstream `extra="allow"`). */

export type AttributeScalar = string | boolean | number;
export type AttributeValue = AttributeScalar | AttributeScalar[];
export type Attributes = Record<string, AttributeValue>;

/**
 * What the span readers (rewards, messages, objects, tags, links) look at: a name and attributes. Arclight
 * `Span`s, OpenTelemetry `ReadableSpan`s and `SpanCoreFields` all qualify.
 */
export interface SpanLike {
  name: string;
  attributes?: Readonly<Record<string, unknown>> | null;
}

export const STATUS_CODES = ['UNSET', 'OK', 'ERROR'] as const;
export type StatusCode = (typeof STATUS_CODES)[number];

export interface TraceStatus {
  status_code: StatusCode;
  description: string | null;
  [extra: string]: unknown;
}

export interface SpanContext {
  trace_id: string;
  span_id: string;
  is_remote: boolean;
  trace_state: Record<string, string>;
  [extra: string]: unknown;
}

export interface SpanEvent {
  name: string;
  attributes: Attributes;
  timestamp: number | null;
  [extra: string]: unknown;
}

export interface SpanLink {
  context: SpanContext;
  attributes: Attributes | null;
  [extra: string]: unknown;
}

export interface OtelResource {
  attributes: Attributes;
  schema_url: string;
  [extra: string]: unknown;
}

export interface Span {
  rollout_id: string;
  attempt_id: string;
  sequence_id: number;
  /** 32 lowercase hex characters. */
  trace_id: string;
  /** 16 lowercase hex characters. */
  span_id: string;
  parent_id: string | null;
  name: string;
  status: TraceStatus;
  attributes: Attributes;
  events: SpanEvent[];
  links: SpanLink[];
  /** Epoch seconds. */
  start_time: number | null;
  /** Epoch seconds. */
  end_time: number | null;
  context: SpanContext | null;
  parent: SpanContext | null;
  resource: OtelResource;
  [extra: string]: unknown;
}

/** What emitters produce before a span is attributed to a rollout. */
export interface SpanCoreFields {
  name: string;
  status: TraceStatus;
  attributes: Attributes;
  start_time: number | null;
  end_time: number | null;
}
