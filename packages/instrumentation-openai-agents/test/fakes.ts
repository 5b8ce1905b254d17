import type { AgentsSpanLike, AgentsTraceLike } from '../src/index.js';

/** Plain objects shaped like the SDK's `Trace` and `Span`, fed straight to the processor. */
export function makeTrace(
  traceId = 'trace_1',
  extra: Partial<AgentsTraceLike> = {},
): AgentsTraceLike {
  return { traceId, name: 'Agent workflow', groupId: null, ...extra };
}

export interface FakeSpan extends AgentsSpanLike {
  startedAt: string | null;
  endedAt: string | null;
  error: AgentsSpanLike['error'];
}

let clock = Date.parse('2026-01-01T00:00:00.000Z');

/** Advances the fake clock and returns its ISO time (whole milliseconds, like the SDK's). */
export function tick(ms = 5): string {
  clock += ms;
  return new Date(clock).toISOString();
}

export function makeSpan(
  spanId: string,
  spanData: AgentsSpanLike['spanData'],
  options: { traceId?: string; parentId?: string | null } = {},
): FakeSpan {
  return {
    traceId: options.traceId ?? 'trace_1',
    spanId,
    parentId: options.parentId ?? null,
    spanData,
    startedAt: tick(),
    endedAt: null,
    error: null,
  };
}

/** Stamps the end time, like `span.end()` does before calling the processor. */
export function ended<T extends FakeSpan>(span: T): T {
  span.endedAt = tick();
  return span;
}
