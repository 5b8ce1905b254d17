import * as z from 'zod';
import type { Attributes, AttributeValue } from '../types/span.js';
import { describeValue } from './format-error.js';

/** A finite JSON number (Python `float`). */
export const FloatSchema = z.number();
/** A safe integer (Python `int`). */
export const IntSchema = z.int();
/** Python `Optional[float] = None`. */
export const OptionalFloatSchema = z.number().nullable().default(null);
/** Python `Optional[str] = None`. */
export const OptionalStringSchema = z.string().nullable().default(null);
/** Python `Dict[str, Any]`. */
export const JsonObjectSchema = z.record(z.string(), z.unknown());
/** Python `Optional[Dict[str, Any]] = None`. */
export const OptionalJsonObjectSchema = JsonObjectSchema.nullable().default(null);
/** Python `Any` as a required field: any value, including null, but the key must be present. */
export const AnyRequiredSchema = z.unknown();

/** `str | bool | int | float` or a homogeneous array of one of those (OpenTelemetry attribute value). */
export function isAttributeValue(value: unknown): value is AttributeValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    default:
      return Array.isArray(value) && isHomogeneousArray(value);
  }
}

function isHomogeneousArray(values: unknown[]): boolean {
  if (values.length === 0) return true;
  const kind = typeof values[0];
  if (kind !== 'string' && kind !== 'boolean' && kind !== 'number') return false;
  for (const item of values) {
    if (typeof item !== kind) return false;
    if (kind === 'number' && !Number.isFinite(item)) return false;
  }
  return true;
}

export const AttributeValueSchema = z.custom<AttributeValue>(isAttributeValue, {
  error: (issue) =>
    `expected string, boolean, number or a homogeneous array of one of those, got ${
      Array.isArray(issue.input)
        ? 'an array of mixed or unsupported items'
        : describeValue(issue.input)
    }`,
});

/** `Dict[str, AttributeValue]`. */
export const AttributesSchema: z.ZodType<Attributes, Attributes> = z.record(
  z.string(),
  AttributeValueSchema,
);
