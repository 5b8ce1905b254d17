import type { Attributes, SpanCoreFields, TraceStatus } from '@arclight/core';
import { resolveTracer } from '../tracer/active-tracer.js';
import { instantSpanTimeMs } from '../tracer/span-clock.js';

/** Options shared by all emitters. */
export interface EmitOptions {
  /**
   * `true` (default): create the span through the active tracer, inside the current traceContext.
   * `false`: only build and return the span's core fields; nothing is exported (upstream `DummyTracer`).
   */
  propagate?: boolean;
}

/** Creates an instant span named `name` (or only its core fields, with `propagate: false`). */
export function emitSpan(
  name: string,
  attributes: Attributes,
  options: EmitOptions & { status?: TraceStatus },
): SpanCoreFields {
  if (options.propagate === false) {
    const now = instantSpanTimeMs() / 1000;
    return {
      name,
      attributes: { ...attributes },
      status: options.status ? { ...options.status } : { status_code: 'OK', description: null },
      start_time: now,
      end_time: now,
    };
  }
  return resolveTracer(`a ${name} span`).createSpan(name, attributes, { status: options.status });
}

export const STATUS_OK: TraceStatus = { status_code: 'OK', description: null };
