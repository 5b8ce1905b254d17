import {
  type Attributes,
  type AttributeValue,
  defineKey,
  describeValue,
  ValidationError,
} from '@arclight/core';
import { isPrimitive, primitiveTypeName } from './flatten.js';
import { pythonJsonDumps } from './python-json.js';

/** Called when a mixed list falls back to its JSON text (upstream logs a warning). */
export type SanitizeWarning = (message: string) => void;

/**
 * Upstream `sanitize_list_attribute_sanity`: a list of one primitive type as an OpenTelemetry array value.
 * All strings or all booleans stay as they are; integers with booleans become integers and numbers with
 * booleans become numbers (`true` → 1). Anything else raises `ValidationError`.
 */
export function sanitizeListAttribute(list: readonly unknown[], key = 'list'): AttributeValue {
  if (list.every((item) => typeof item === 'string')) return [...list] as string[];
  if (list.every((item) => typeof item === 'boolean')) return [...list] as boolean[];
  const numeric = (item: unknown) => typeof item === 'boolean' || typeof item === 'number';
  if (list.every((item) => numeric(item))) return list.map((item) => Number(item));
  const types = [...new Set(list.map(typeNameOf))].sort();
  throw new ValidationError(
    `attribute '${key}' must be a list of one primitive type (str, int, float or bool), got a list of ${types.join(', ')}`,
  );
}

/**
 * Upstream `sanitize_attribute_value(force=True)`: primitives pass through, homogeneous lists become arrays,
 * everything else becomes its JSON text (Python `json.dumps(value, default=str)`, so `null` → `"null"` and
 * objects → `{"a": 1}`). Cycles raise `ValidationError`.
 */
export function sanitizeAttributeValue(
  value: unknown,
  key = 'value',
  warn?: SanitizeWarning,
): AttributeValue {
  if (isPrimitive(value)) return value;
  if (typeof value === 'bigint') {
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  }
  if (Array.isArray(value)) {
    try {
      return sanitizeListAttribute(value, key);
    } catch (error) {
      warn?.(`${(error as Error).message}; falling back to JSON serialization`);
    }
  }
  return pythonJsonDumps(value, { fallback: (v) => String(v), what: `attribute '${key}'` });
}

/** Upstream `sanitize_attributes`: {@link sanitizeAttributeValue} for every entry. */
export function sanitizeAttributes(
  attributes: Record<string, unknown>,
  warn?: SanitizeWarning,
): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    defineKey(out, key, sanitizeAttributeValue(value, key, warn));
  }
  return out;
}

/**
 * Upstream `check_attributes_sanity`: every value must already be a primitive or a list of one primitive
 * type; raises `ValidationError` naming the offending key otherwise.
 */
export function checkAttributesSanity(attributes: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(attributes)) {
    if (Array.isArray(value)) {
      sanitizeListAttribute(value, key);
    } else if (!isPrimitive(value)) {
      throw new ValidationError(
        `attribute '${key}' must be a string, number, boolean or a list of these, got ${typeNameOf(value)} (${describeValue(value)})`,
      );
    }
  }
}

/** A short type description for error messages: Python's primitive names, else JS's. */
export function typeNameOf(value: unknown): string {
  if (isPrimitive(value)) return primitiveTypeName(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'object') return value.constructor?.name ?? 'object';
  return typeof value;
}
