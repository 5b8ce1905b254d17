import type { Attributes, SpanCoreFields } from '@arclight/core';
import { context, type Tracer } from '@opentelemetry/api';
import { isPromiseLike } from '../is-promise-like.js';
import type { CreateSpanOptions } from './active-tracer.js';
import { instantSpanTimeMs } from './span-clock.js';
import {
  coreFieldsOf,
  OtelSpanRecording,
  type SpanRecording,
  toOtelStatus,
} from './span-recording.js';

/** Upstream `OtelTracer.create_span`: an instant span under the active span, ended at once. */
export function createInstantSpan(
  tracer: Tracer,
  name: string,
  attributes: Attributes,
  options: CreateSpanOptions = {},
): SpanCoreFields {
  const time = options.timestamp === undefined ? instantSpanTimeMs() : options.timestamp * 1000;
  const span = tracer.startSpan(name, { attributes, startTime: time }, context.active());
  if (options.status) span.setStatus(toOtelStatus(options.status));
  span.end(time);
  const now = time / 1000;
  return coreFieldsOf(span, {
    name,
    attributes: { ...attributes },
    status: options.status ? { ...options.status } : { status_code: 'UNSET', description: null },
    start_time: now,
    end_time: now,
  });
}

/**
 * Upstream `OtelTracer.operation_context`: runs `body` inside a new active span, which ends when `body` returns
 * or its promise settles; a throw or rejection is recorded on the span (status ERROR) and passed on.
 */
export function runInActiveSpan<T>(
  tracer: Tracer,
  name: string,
  attributes: Attributes,
  body: (recording: SpanRecording) => T,
): T {
  return tracer.startActiveSpan(name, { attributes }, (span) => {
    const recording = new OtelSpanRecording(span, name, attributes);
    let result: T;
    try {
      result = body(recording);
    } catch (error) {
      recording.recordException(error);
      span.end();
      throw error;
    }
    if (!isPromiseLike(result)) {
      span.end();
      return result;
    }
    return Promise.resolve(result).then(
      (value) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        recording.recordException(error);
        span.end();
        throw error;
      },
    ) as T;
  });
}
