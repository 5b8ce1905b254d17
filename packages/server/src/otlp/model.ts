/**
 * A decoded OTLP trace export, independent of its encoding (protobuf or OTLP/JSON). Ids are already lowercase
 * hex, attribute values already JSON (upstream `_any_value_to_python`), times still integer nanoseconds.
 */
export type OtlpJsonValue =
  | string
  | number
  | boolean
  | null
  | OtlpJsonValue[]
  | { [key: string]: OtlpJsonValue };

export type OtlpAttributes = Record<string, OtlpJsonValue>;

export interface OtlpEvent {
  name: string;
  timeUnixNano: bigint;
  attributes: OtlpAttributes;
}

export interface OtlpLink {
  traceId: string;
  spanId: string;
  attributes: OtlpAttributes;
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  /** null when the span has no parent (empty `parent_span_id`). */
  parentSpanId: string | null;
  name: string;
  /** OTLP `Status.code`: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  statusMessage: string;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: OtlpAttributes;
  events: OtlpEvent[];
  links: OtlpLink[];
}

export interface OtlpResourceSpans {
  resourceAttributes: OtlpAttributes;
  schemaUrl: string;
  spans: OtlpSpan[];
}

/** Thrown by the decoders for a payload that is not a valid export request (→ 400). */
export class OtlpDecodeError extends Error {
  override readonly name = 'OtlpDecodeError';
}
