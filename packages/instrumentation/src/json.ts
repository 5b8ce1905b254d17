import type { JsonRecord } from '@arclight/core';

const MAX_DEPTH = 64;

/**
 * JSON text of any value, never throwing: a reference back to an enclosing object becomes `"[Circular]"`,
 * bigints become decimal strings, functions and symbols are dropped (as `JSON.stringify` does), objects with
 * `toJSON` (framework messages, dates) are serialised through it, and a value whose getters throw becomes its
 * `String(…)`.
 */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(toPlain(value, new Set(), 0)) ?? 'null';
  } catch {
    try {
      return JSON.stringify(String(value));
    } catch {
      return '"[unserializable]"';
    }
  }
}

function toPlain(value: unknown, ancestors: Set<object>, depth: number): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Truncated]';
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === 'function') {
    const converted = withToJson.toJSON();
    if (converted !== value) return toPlain(converted, ancestors, depth);
  }
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((v) => toPlain(v, ancestors, depth + 1) ?? null);
    const out: JsonRecord = {};
    for (const [key, v] of Object.entries(value)) {
      const plain = toPlain(v, ancestors, depth + 1);
      if (plain !== undefined && typeof plain !== 'function' && typeof plain !== 'symbol')
        out[key] = plain;
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}

/** True for objects with a callable `then` (promises, the OpenAI SDK's `APIPromise`). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  try {
    return (
      (typeof value === 'object' || typeof value === 'function') &&
      value !== null &&
      typeof (value as { then?: unknown }).then === 'function'
    );
  } catch {
    return false;
  }
}
