import type { AttributeBag, JsonRecord, ToolCallRecord } from '@arclight/core';
import type { ResolvedOptions } from './options.js';

/** Folds the chunks (or events) of a stream into the object a non-streaming call would have returned. */
export interface StreamAccumulator {
  add(chunk: unknown): void;
  /** The response assembled so far (complete once the stream finished). */
  result(): JsonRecord;
}

/** What differs between the instrumented `create` methods (chat, responses, legacy completions). */
export interface Endpoint {
  readonly spanName: string;
  /** Adds the opt-in request fields; returns `body` itself when there is nothing to add. */
  augmentBody(body: JsonRecord, options: ResolvedOptions): JsonRecord;
  requestAttributes(body: JsonRecord, options: ResolvedOptions, bag: AttributeBag): void;
  /** Writes response attributes; returns the tool calls of the first completion. */
  responseAttributes(
    response: JsonRecord,
    options: ResolvedOptions,
    bag: AttributeBag,
  ): ToolCallRecord[];
  /** Error message when a successfully received response reports a failure (Responses `status: failed`). */
  responseFailure(response: JsonRecord): string | undefined;
  createAccumulator(): StreamAccumulator;
}

/** Returns a copy of `body` with `extra`'s fields that `body` does not set, or `body` if nothing changes. */
export function withDefaults(body: JsonRecord, extra: JsonRecord): JsonRecord {
  let out: JsonRecord | undefined;
  for (const [key, value] of Object.entries(extra)) {
    if (body[key] !== undefined) continue;
    out ??= { ...body };
    out[key] = value;
  }
  return out ?? body;
}
