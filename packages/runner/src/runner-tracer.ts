import { type Span, spanFromOtel } from '@arclight/core';
import { currentTraceScope } from '@arclight/otel';

/**
 * What a runner needs from a tracer (upstream `Tracer.trace_context` / `get_last_trace`). `LightningTracer`
 * from `@arclight/otel` implements it; so can a test double.
 */
export interface RunnerTracer {
  /** Runs `fn` with every span started inside it attributed to the rollout attempt. */
  traceContext<R>(ids: { rolloutId: string; attemptId: string }, fn: () => Promise<R>): Promise<R>;
  /** The spans of the most recently completed `traceContext`. */
  getLastTrace(): Span[];
  /** Writes everything queued (optional). */
  flush?(timeoutMs?: number): Promise<boolean>;
  /** Flushes and releases the tracer (optional; called by a runner on a tracer it created). */
  shutdown?(): Promise<void>;
}

type Scope = NonNullable<ReturnType<typeof currentTraceScope>>;

/**
 * Runs `fn` in `tracer.traceContext` and returns its value together with the spans of exactly that context.
 * With a `LightningTracer` the spans are read from the context's own scope, so runners sharing one tracer
 * concurrently never see each other's trace; other tracers fall back to `getLastTrace()`.
 */
export async function traceAttempt<R>(
  tracer: RunnerTracer,
  ids: { rolloutId: string; attemptId: string },
  fn: () => Promise<R>,
): Promise<{ value: R; lastTrace: () => Span[] }> {
  let scope: Scope | undefined;
  const value = await tracer.traceContext(ids, () => {
    const current = currentTraceScope();
    if (current && current.owner === tracer) scope = current;
    return fn();
  });
  return { value, lastTrace: () => (scope ? scopeSpans(scope, ids) : tracer.getLastTrace()) };
}

/** The finished spans of a scope: as stored, or converted locally with sequence ids 1, 2, …. */
function scopeSpans(scope: Scope, ids: { rolloutId: string; attemptId: string }): Span[] {
  return scope.records.map(
    (record, i) =>
      record.stored ?? spanFromOtel(record.readable, ids.rolloutId, ids.attemptId, i + 1),
  );
}
