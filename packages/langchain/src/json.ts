/** Small helpers for reading untyped values (LangChain runs, provider responses). */

import type { JsonRecord } from '@arclight/core';

/** The value when it is a non-empty array of integers, else `undefined`. */
export function nonEmptyIntArray(value: unknown): number[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.every((v) => Number.isInteger(v)) ? (value as number[]) : undefined;
}

/**
 * JSON text of any value, never throwing: a reference back to an enclosing object becomes `"[Circular]"`,
 * bigints become decimal strings, functions and symbols are dropped (as `JSON.stringify` does), and objects
 * with `toJSON` (LangChain messages, documents, dates) are serialised through it.
 */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(toPlain(value, new Set(), 0)) ?? 'null';
  } catch {
    return JSON.stringify(String(value));
  }
}

const MAX_DEPTH = 64;

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
