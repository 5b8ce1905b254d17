/** Narrowing helpers for the loosely typed payloads of triplets (`prompt`, `response`, `metadata`). */

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export const field = (value: unknown, key: string): unknown =>
  isObject(value) ? value[key] : undefined;

export const asString = (value: unknown): string | null =>
  typeof value === 'string' ? value : null;

/**
 * A list of integers (token ids), or null when the value is anything else. `from`: the elements before it are
 * known to be integers already (e.g. equal, by `===`, to those of a checked list).
 */
export function asIntList(value: unknown, from = 0): number[] | null {
  if (!Array.isArray(value)) return null;
  // Indexed, int32 first: this runs over every id of every call (~3x faster than `for…of` + isInteger alone).
  for (let i = from; i < value.length; i++) {
    const item: unknown = value[i];
    if (typeof item === 'number' && (item | 0) === item) continue;
    if (!Number.isInteger(item)) return null;
  }
  return value as number[];
}

/**
 * Lists unflattened from OTel attributes may arrive as arrays or as objects with numeric keys
 * (`{"0": …, "1": …}`); both become arrays in index order.
 */
export function asList(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return null;
  const keys = Object.keys(value);
  if (keys.length === 0 || !keys.every((k) => /^\d+$/.test(k))) return null;
  return keys.sort((a, b) => Number(a) - Number(b)).map((k) => value[k]);
}

/** Parses a JSON string, returning `fallback` when it is not valid JSON. */
export function parseJsonOr<T>(text: string, fallback: T): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}

/** Does `ids` start with `prefix` followed by `rest`? */
export function startsWithPair(
  ids: readonly unknown[],
  prefix: readonly number[],
  rest: readonly number[],
): boolean {
  if (ids.length < prefix.length + rest.length) return false;
  for (let i = 0; i < prefix.length; i++) if (ids[i] !== prefix[i]) return false;
  const offset = prefix.length;
  for (let i = 0; i < rest.length; i++) if (ids[offset + i] !== rest[i]) return false;
  return true;
}
