// The write side of attribute flattening; the readers (`unflattenAttributes`, `filterAttributes`,
// `filterAndUnflattenAttributes`) are @arclight/core's.
import { defineKey, isPlainRecord } from '@arclight/core';

/** A value Python would see as `str | int | float | bool`. */
export function isPrimitive(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** Python's primitive type of a JS value: integral numbers are `int`, other numbers `float`. */
export function primitiveTypeName(
  value: string | number | boolean,
): 'str' | 'int' | 'float' | 'bool' {
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return 'str';
}

export interface FlattenOptions {
  /**
   * Expand lists of primitives into indexed keys too. Off by default: a non-empty list whose items share one
   * primitive type stays a single (OpenTelemetry array) value; mixed lists are always expanded.
   */
  expandLeafLists?: boolean;
  /** Receives a note when a mixed primitive list is expanded (upstream logs a warning). */
  onMixedList?: (key: string, types: string[]) => void;
}

/**
 * Upstream `flatten_attributes`: nested plain objects and arrays become dotted keys (`a.b`, `a.c.0`). Anything
 * else (strings, numbers, null, Dates, class instances, …) is a leaf kept as is — sanitising leaves is
 * {@link sanitizeAttributes}'s job.
 */
export function flattenAttributes(
  nested: Record<string, unknown> | unknown[],
  options: FlattenOptions = {},
): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  const walk = (value: unknown, prefix: string): void => {
    if (isPlainRecord(value)) {
      for (const [key, item] of Object.entries(value))
        walk(item, prefix ? `${prefix}.${key}` : key);
      return;
    }
    if (Array.isArray(value)) {
      const leafCandidate = value.length > 0 && value.every(isPrimitive);
      if (!options.expandLeafLists && leafCandidate && prefix) {
        const types = [
          ...new Set((value as Array<string | number | boolean>).map(primitiveTypeName)),
        ];
        if (types.length === 1) {
          defineKey(flat, prefix, value);
          return;
        }
        options.onMixedList?.(prefix, types);
      }
      for (const [index, item] of value.entries()) {
        walk(item, prefix ? `${prefix}.${index}` : String(index));
      }
      return;
    }
    defineKey(flat, prefix, value);
  };
  walk(nested, '');
  return flat;
}
