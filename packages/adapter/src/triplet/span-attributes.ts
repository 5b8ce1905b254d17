import { filterAndUnflattenAttributes, pythonTruthy } from '@arclight/core';

type Attributes = Readonly<Record<string, unknown>>;

const own = (attributes: Attributes, key: string): boolean =>
  Object.hasOwn(attributes, key) && attributes[key] !== null && attributes[key] !== undefined;

/** Upstream `_attributes_get_multiple`: the first of `keys` present with a string value, else `null`. */
export function firstString(attributes: Attributes, keys: readonly string[]): string | null {
  for (const key of keys) {
    if (own(attributes, key) && typeof attributes[key] === 'string') return attributes[key];
  }
  return null;
}

/** Python's `isinstance(x, int)`: integers, and booleans (a subclass of int). */
const isPythonInt = (value: unknown): boolean =>
  typeof value === 'boolean' || (typeof value === 'number' && Number.isInteger(value));

/**
 * Upstream `_attributes_get_ids_multiple`: the first of `keys` present holding a list of integers (possibly
 * empty — it still ends the search), else `null`. Present keys with other values are skipped.
 */
export function firstIdList(attributes: Attributes, keys: readonly string[]): unknown[] | null {
  for (const key of keys) {
    if (!own(attributes, key)) continue;
    const value = attributes[key];
    if (Array.isArray(value) && value.every(isPythonInt)) return [...value];
  }
  return null;
}

/**
 * Upstream `_attributes_unflatten_multiple`: the first prefix whose attributes unflatten to a non-empty
 * object or list, else `null`. A key equal to a prefix throws (see `filterAndUnflattenAttributes`).
 */
export function firstUnflattened(
  attributes: Attributes,
  prefixes: readonly string[],
): Record<string, unknown> | unknown[] | null {
  for (const prefix of prefixes) {
    const result = filterAndUnflattenAttributes(attributes, prefix);
    if (pythonTruthy(result)) return result;
  }
  return null;
}

/** Response id of an LLM span: `gen_ai.response.id`, else `agentlightning.operation.output.id` (Weave). */
export const responseIdOf = (attributes: Attributes): string | null =>
  firstString(attributes, ['gen_ai.response.id', 'agentlightning.operation.output.id']);
