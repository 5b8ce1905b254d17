import { ValidationError } from '../errors.js';

/**
 * Pure readers of flattened span attributes, with the semantics of upstream `utils/otel.py`
 * (`filter_attributes`, `unflatten_attributes`, `filter_and_unflatten_attributes`, v0.3.0). They are what the
 * adapters and the reward readers use; they never touch OpenTelemetry.
 */

/** A plain `{...}` object — what Python would call a dict (not an array, Map, Date or class instance). */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Own-property assignment that cannot reach a prototype (`__proto__` is a plain key here). */
export function defineKey<T>(target: Record<string, T>, key: string, value: T): void {
  // `__proto__` is the only accessor on Object.prototype; every other key assigns an own data property.
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else target[key] = value;
}

const hasOwn = (target: object, key: string): boolean => Object.hasOwn(target, key);

/** Python's `str.isdigit()` for the ASCII digits attribute keys use. */
export function isDigitKey(key: string): boolean {
  if (key.length === 0) return false;
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** Upstream `filter_attributes`: the attributes whose key is `prefix` or starts with `prefix.`. */
export function filterAttributes(
  attributes: Readonly<Record<string, unknown>>,
  prefix: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (key === prefix || key.startsWith(`${prefix}.`)) defineKey(out, key, value);
  }
  return out;
}

/**
 * Upstream `unflatten_attributes`: dotted keys back into nested objects, in key order (a later key that
 * needs an object where a value sits replaces it, and vice versa); then every object whose keys are exactly
 * the digits `0..n-1` becomes an array.
 *
 * JavaScript enumerates integer-like keys first, so an object that keeps digit keys next to other keys (for
 * example `{"0": …, "prompt_filter_results": …}`) lists them in a different order than Python's dict would;
 * the keys and values are the same.
 */
export function unflattenAttributes(
  flat: Readonly<Record<string, unknown>>,
): Record<string, unknown> | unknown[] {
  const root: Record<string, unknown> = {};
  for (const key of Object.keys(flat)) insertPath(root, key, flat[key]);
  return convertDigitObjects(root) as Record<string, unknown> | unknown[];
}

/** Places `value` at the dotted `path`, replacing whatever is in the way (upstream's step 1). */
function insertPath(root: Record<string, unknown>, path: string, value: unknown): void {
  let node = root;
  let from = 0;
  for (let dot = path.indexOf('.'); dot !== -1; dot = path.indexOf('.', from)) {
    const part = path.slice(from, dot);
    const next = hasOwn(node, part) ? node[part] : undefined;
    if (isPlainRecord(next)) node = next;
    else {
      const created: Record<string, unknown> = {};
      defineKey(node, part, created);
      node = created;
    }
    from = dot + 1;
  }
  defineKey(node, path.slice(from), value);
}

function convertDigitObjects(node: unknown): unknown {
  if (!isPlainRecord(node)) return node;
  const keys = Object.keys(node);
  for (const key of keys) defineKey(node, key, convertDigitObjects(node[key]));
  if (keys.length === 0 || !keys.every(isDigitKey)) return node;
  const indices = keys.map(Number).sort((a, b) => a - b);
  if (!indices.every((index, position) => index === position)) return node;
  return indices.map((index) => {
    // Keys such as "01" pass the digit test but are not "1": upstream fails with a KeyError here.
    if (!hasOwn(node, String(index))) {
      throw new ValidationError(`attribute key '${keys.join("', '")}' is not a valid list index`);
    }
    return node[String(index)];
  });
}

/**
 * Upstream `filter_and_unflatten_attributes`: the attributes under `prefix.`, prefix removed, as a nested
 * structure (`{}` when there are none). An attribute whose key equals `prefix` itself cannot be placed:
 * `ValidationError`, as upstream raises `ValueError`.
 */
export function filterAndUnflattenAttributes(
  attributes: Readonly<Record<string, unknown>>,
  prefix: string,
): Record<string, unknown> | unknown[] {
  const dotted = `${prefix}.`;
  const root: Record<string, unknown> = {};
  for (const key of Object.keys(attributes)) {
    if (key === prefix) {
      throw new ValidationError(
        `attribute '${key}' cannot be unflattened: its key equals the prefix '${prefix}'`,
      );
    }
    if (key.startsWith(dotted)) insertPath(root, key.slice(dotted.length), attributes[key]);
  }
  return convertDigitObjects(root) as Record<string, unknown> | unknown[];
}
