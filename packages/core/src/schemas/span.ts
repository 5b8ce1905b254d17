import * as z from 'zod';
import { toEpochSeconds } from '../spans/timestamp.js';
import { type Span, STATUS_CODES } from '../types/span.js';
import { AttributesSchema, IntSchema } from './common.js';
import { parseWith } from './format-error.js';

/** Epoch seconds; nanosecond values (> 1e12) are converted like upstream `convert_timestamp`. */
const TimestampSchema = z.number().transform(toEpochSeconds);

export const StatusCodeSchema = z.enum(STATUS_CODES);

/** Upstream `TraceStatus` (`extra="allow"`: unknown keys are kept). */
export const TraceStatusSchema = z.looseObject({
  status_code: StatusCodeSchema,
  description: z.string().nullable().default(null),
});

/** Upstream `SpanContext` (`extra="allow"`). */
export const SpanContextSchema = z.looseObject({
  trace_id: z.string(),
  span_id: z.string(),
  is_remote: z.boolean(),
  trace_state: z.record(z.string(), z.string()),
});

/** Upstream `Event` (`extra="allow"`). */
export const EventSchema = z.looseObject({
  name: z.string(),
  attributes: AttributesSchema,
  timestamp: TimestampSchema.nullable().default(null),
});

/** Upstream `Link` (`extra="allow"`). */
export const LinkSchema = z.looseObject({
  context: SpanContextSchema,
  attributes: AttributesSchema.nullable().default(null),
});

/** Upstream `OtelResource`. Like upstream (no `extra="allow"` on this model) unknown keys are dropped. */
export const OtelResourceSchema = z.object({
  attributes: AttributesSchema,
  schema_url: z.string(),
});

/**
 * Upstream `Span` (`extra="allow"`). Every field is required; the optional ones may be `null`.
 * `start_time`/`end_time` in nanoseconds are converted to seconds. Compiled with `z.compile` (spans are
 * validated on hot paths): valid input takes generated code, invalid input the regular parser and its errors.
 */
export const SpanSchema = z.compile(
  z.looseObject({
    rollout_id: z.string(),
    attempt_id: z.string(),
    sequence_id: IntSchema,
    trace_id: z.string(),
    span_id: z.string(),
    parent_id: z.string().nullable(),
    name: z.string(),
    status: TraceStatusSchema,
    attributes: AttributesSchema,
    events: z.array(EventSchema),
    links: z.array(LinkSchema),
    start_time: TimestampSchema.nullable(),
    end_time: TimestampSchema.nullable(),
    context: SpanContextSchema.nullable(),
    parent: SpanContextSchema.nullable(),
    resource: OtelResourceSchema,
  }),
);

/** Validates a span from untrusted JSON; throws a `ValidationError` naming the offending fields. */
export const parseSpan = (value: unknown, label = 'span'): Span =>
  parseWith(SpanSchema, value, label);
