/**
 * The parts of the Agents SDK's `Trace` and `Span` the processor reads. The SDK's classes have `#private`
 * fields (so TypeScript types them nominally); these structural shapes accept them as well as plain objects
 * (fake spans in tests, spans rebuilt from JSON). Every field is treated as untrusted at run time.
 */

/** `Trace` (`@openai/agents-core` tracing/traces). */
export interface AgentsTraceLike {
  readonly traceId: string;
  readonly name?: string;
  readonly groupId?: string | null;
  readonly metadata?: Record<string, unknown>;
}

/** `SpanError`: `span.error`. */
export interface AgentsSpanErrorLike {
  readonly message: string;
  readonly data?: Record<string, unknown>;
}

/** `SpanData`: a discriminated union on `type` (`agent`, `generation`, `response`, `function`, …). */
export interface AgentsSpanDataLike {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** `Span<SpanData>` (`@openai/agents-core` tracing/spans). */
export interface AgentsSpanLike {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentId: string | null;
  readonly spanData: AgentsSpanDataLike;
  /** ISO-8601 times set by `span.start()` / `span.end()`. */
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly error: AgentsSpanErrorLike | null;
}
