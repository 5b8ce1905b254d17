/**
 * The parts of an OpenTelemetry SDK `ReadableSpan` that Arclight reads. Structural, so that spans from any
 * `@opentelemetry/sdk-trace-base` version (1.x or 2.x) are accepted without a dependency on it.
 */
export type HrTime = [number, number];

export interface OtelSpanContextLike {
  traceId: string;
  spanId: string;
  isRemote?: boolean;
  traceFlags?: number;
  traceState?: { serialize(): string } | undefined;
}

export type OtelAttributeValue =
  | string
  | number
  | boolean
  | Array<string | number | boolean | null | undefined>
  | undefined;

export interface OtelSpanLike {
  name: string;
  spanContext(): OtelSpanContextLike;
  /** SDK 2.x */
  parentSpanContext?: OtelSpanContextLike | undefined;
  /** SDK 1.x */
  parentSpanId?: string | undefined;
  startTime: HrTime;
  endTime: HrTime;
  status: { code: number; message?: string | undefined };
  attributes: Record<string, OtelAttributeValue>;
  events: Array<{
    name: string;
    time: HrTime;
    attributes?: Record<string, OtelAttributeValue> | undefined;
  }>;
  links: Array<{
    context: OtelSpanContextLike;
    attributes?: Record<string, OtelAttributeValue> | undefined;
  }>;
  resource: { attributes: Record<string, unknown>; schemaUrl?: string | undefined };
}
