/**
 * Loose readers for untyped payloads (SDK requests and responses, framework events). Instrumentation reads
 * them from `unknown`: SDK majors differ in their typings and servers (vLLM) add fields no type knows.
 */

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asRecord(value: unknown): JsonRecord | undefined {
  return isRecord(value) ? value : undefined;
}

export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A copy of `value` when it is an array of integers (token ids), else undefined. */
export function asIntArray(value: unknown): number[] | undefined {
  if (!Array.isArray(value)) return undefined;
  for (const item of value) if (!Number.isInteger(item)) return undefined;
  return value.slice() as number[];
}

/** `JSON.stringify` that never throws (cycles, BigInt): falls back to `String(value)`. */
export function toJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
