import { asRecord, asString } from '@arclight/core';
import {
  type Context,
  type Span as OtelSpan,
  SpanStatusCode,
  type Tracer,
} from '@opentelemetry/api';
import { newAttributeBag } from './attribute-bag.js';
import type { CapturedAttribution } from './attribution.js';
import { AgentsAttributes } from './keys.js';

/** An OTel span the processor opened for an SDK trace or span and has not ended yet. */
export interface OpenSpan {
  readonly otel: OtelSpan;
  /** Context whose active span is `otel`: the parent of its children. */
  readonly context: Context;
  readonly tracer: Tracer;
  readonly attribution: CapturedAttribution;
  readonly startMillis: number;
}

/** `span.error` → status ERROR with its message, an `exception` event and the error data as JSON. */
export function recordSpanError(otel: OtelSpan, error: unknown): string | undefined {
  const record = asRecord(error);
  if (!record) return undefined;
  const message = asString(record.message) ?? 'error';
  otel.setStatus({ code: SpanStatusCode.ERROR, message });
  otel.recordException({ name: 'AgentsSpanError', message });
  const bag = newAttributeBag();
  bag.setJson(AgentsAttributes.ERROR_DATA, record.data);
  otel.setAttributes(bag.attributes);
  return message;
}

/** Ends a span the SDK never ended (evicted, shut down), marked `openai_agents.unfinished`. */
export function endUnfinished(otel: OtelSpan): void {
  otel.setAttribute(AgentsAttributes.UNFINISHED, true);
  otel.end();
}
