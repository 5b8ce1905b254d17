/** Small helpers for reading untyped values (LangChain runs, provider responses). */

/** The value when it is a non-empty array of integers, else `undefined`. */
export function nonEmptyIntArray(value: unknown): number[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.every((v) => Number.isInteger(v)) ? (value as number[]) : undefined;
}

export { safeJson } from '@arclight/instrumentation';
