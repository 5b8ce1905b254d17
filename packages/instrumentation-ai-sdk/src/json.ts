/**
 * Readers for AI SDK events and provider payloads, besides the loose readers of `@arclight/core`. Events are
 * generic over the caller's tools and context, and servers (vLLM) add fields no type knows, so everything is
 * read defensively from `unknown`.
 */

import { asRecord, isRecord, type JsonRecord, toJson } from '@arclight/core';

/** A JSON object given as an object or as its JSON text (providers report request bodies either way). */
export function parseJsonRecord(value: unknown): JsonRecord | undefined {
  if (isRecord(value)) return value;
  if (typeof value !== 'string') return undefined;
  try {
    return asRecord(JSON.parse(value));
  } catch {
    return undefined;
  }
}

/** Text for a value that may already be a string (tool arguments, tool results). */
export function asText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : toJson(value);
}
