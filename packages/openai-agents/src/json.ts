/**
 * JSON for the SDK's span data (read with the loose readers of `@arclight/core`). Span data holds whatever the
 * model provider returned (vLLM adds fields no type knows), and a processor must cope with anything.
 */

/** `JSON.stringify` that never throws (cycles, BigInt, hostile getters): falls back to `String(value)`. */
export function toJsonSafely(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return '[unserializable]';
    }
  }
}
