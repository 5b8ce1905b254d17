import { ValidationError } from '@arclight/core';

/** A plain `{...}` object (what Python would call a dict): not an array, class instance, Map, Date, … */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

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
    if (isPlainObject(value)) {
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
          setKey(flat, prefix, value);
          return;
        }
        options.onMixedList?.(prefix, types);
      }
      for (const [index, item] of value.entries()) {
        walk(item, prefix ? `${prefix}.${index}` : String(index));
      }
      return;
    }
    setKey(flat, prefix, value);
  };
  walk(nested, '');
  return flat;
}

/**
 * Upstream `unflatten_attributes`: dotted keys back into nested objects; an object whose keys are exactly
 * `0..n-1` becomes an array.
 */
export function unflattenAttributes(
  flat: Record<string, unknown>,
): Record<string, unknown> | unknown[] {
  const root: Record<string, unknown> = {};
  for (const [flatKey, value] of Object.entries(flat)) {
    const parts = flatKey.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      if (!isPlainObject(node[part])) setKey(node, part, {});
      node = node[part] as Record<string, unknown>;
    }
    setKey(node, parts[parts.length - 1]!, value);
  }
  const convert = (node: unknown): unknown => {
    if (!isPlainObject(node)) return node;
    for (const key of Object.keys(node)) setKey(node, key, convert(node[key]));
    const keys = Object.keys(node);
    if (keys.length === 0 || !keys.every((k) => /^\d+$/.test(k))) return node;
    const indices = keys.map(Number).sort((a, b) => a - b);
    if (!indices.every((n, i) => n === i)) return node;
    return indices.map((i) => node[String(i)]);
  };
  return convert(root) as Record<string, unknown> | unknown[];
}

/** Own-property assignment that cannot touch a prototype (keys such as `__proto__` are plain keys here). */
export function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** Upstream `filter_attributes`: the attributes whose key is `prefix` or starts with `prefix.`. */
export function filterAttributes(
  attributes: Record<string, unknown>,
  prefix: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (key === prefix || key.startsWith(`${prefix}.`)) out[key] = value;
  }
  return out;
}

/**
 * Upstream `filter_and_unflatten_attributes`: the attributes under `prefix.`, with the prefix removed, as a
 * nested structure. A key equal to `prefix` itself cannot be placed and raises `ValidationError`.
 */
export function filterAndUnflattenAttributes(
  attributes: Record<string, unknown>,
  prefix: string,
): Record<string, unknown> | unknown[] {
  const stripped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filterAttributes(attributes, prefix))) {
    if (key === prefix) {
      throw new ValidationError(
        `attribute '${key}' cannot be unflattened: its key equals the prefix '${prefix}'`,
      );
    }
    stripped[key.slice(prefix.length + 1)] = value;
  }
  return unflattenAttributes(stripped);
}
