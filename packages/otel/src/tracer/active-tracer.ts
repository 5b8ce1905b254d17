import type { Attributes, SpanCoreFields, TraceStatus } from '@arclight/core';
import type { SpanRecording } from './span-recording.js';
import { currentScope } from './trace-scope.js';

/** Ids of a `traceContext`: both or neither (without ids, spans are recorded locally but never exported). */
export interface TraceContextIds {
  rolloutId?: string | null;
  attemptId?: string | null;
}

export interface CreateSpanOptions {
  /** Epoch seconds; start and end of the (instant) span. Defaults to now. */
  timestamp?: number;
  status?: TraceStatus;
}

/** What emitters need from a tracer (implemented by `LightningTracer`). */
export interface EmitterTracer {
  /** Creates and ends an instant span under the active span (upstream `create_span`). */
  createSpan(name: string, attributes: Attributes, options?: CreateSpanOptions): SpanCoreFields;
  /** Runs `body` inside a new active span; the span ends when `body` returns or its promise settles. */
  runInSpan<T>(name: string, attributes: Attributes, body: (recording: SpanRecording) => T): T;
  traceContext<T>(ids: TraceContextIds, fn: () => T | Promise<T>): Promise<T>;
}

let active: EmitterTracer | null = null;

/** Makes `tracer` the process-wide active tracer (used outside any `traceContext`). */
export function setActiveTracer(tracer: EmitterTracer): void {
  active = tracer;
}

/** The process-wide active tracer, if any. */
export function getActiveTracer(): EmitterTracer | null {
  return active;
}

/** Clears the active tracer (only if it is `tracer`, when given). */
export function clearActiveTracer(tracer?: EmitterTracer): void {
  if (tracer === undefined || active === tracer) active = null;
}

/**
 * The tracer emitters use: the one whose `traceContext` the caller runs in, else the active tracer. Throws when
 * there is neither (upstream: "No active tracer found").
 */
export function resolveTracer(what: string): EmitterTracer {
  const scoped = currentScope()?.owner as EmitterTracer | undefined;
  const tracer = scoped ?? active;
  if (!tracer) {
    throw new Error(
      `No active LightningTracer: cannot emit ${what}. Call it inside tracer.traceContext(...), create a ` +
        'LightningTracer first, or pass { propagate: false }.',
    );
  }
  return tracer;
}

/** `traceContext` of the active tracer: see `LightningTracer.traceContext`. */
export function traceContext<T>(ids: TraceContextIds, fn: () => T | Promise<T>): Promise<T> {
  const tracer = active;
  if (!tracer) {
    return Promise.reject(
      new Error(
        'No active LightningTracer: create one (or call setActiveTracer) before traceContext().',
      ),
    );
  }
  return tracer.traceContext(ids, fn);
}
