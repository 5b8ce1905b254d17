import type { OtelSpanLike } from '@arclight/core';

export interface OtelSpanOptions {
  attributes?: Record<string, string | number | boolean | string[]>;
  /** Make the new span a child of this one. */
  parent?: OtelSpanLike;
  /** Ends the span with status ERROR and this message. */
  error?: string;
  /** Adds one event with this name (and attribute `detail: "value"`). */
  event?: string;
}

export interface OtelSpanFactory {
  /** Starts and ends a real SDK span and returns the finished `ReadableSpan`. */
  span(name: string, options?: OtelSpanOptions): OtelSpanLike;
}

/**
 * Real spans from `@opentelemetry/sdk-trace-base` 2.x (`BasicTracerProvider` + `InMemorySpanExporter`).
 * Loaded lazily so that only cases using OTel spans need the SDK installed. Deliberately not a peer dependency,
 * not even an optional one: npm resolves optional peers' own peers too, and sdk-trace-base 2.x's
 * `@opentelemetry/api <1.10` would then conflict with the OpenTelemetry SDK 3.x that `@arclight/otel` uses.
 */
export async function createOtelSpanFactory(): Promise<OtelSpanFactory> {
  const sdk = await import('@opentelemetry/sdk-trace-base').catch((error: unknown) => {
    throw new Error(
      'the conformance cases with OpenTelemetry spans need @opentelemetry/sdk-trace-base 2.x: ' +
        'npm install -D @opentelemetry/sdk-trace-base@^2',
      { cause: error },
    );
  });
  const api = await import('@opentelemetry/api');
  const exporter = new sdk.InMemorySpanExporter();
  const provider = new sdk.BasicTracerProvider({
    spanProcessors: [new sdk.SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('arclight-conformance');

  return {
    span(name, options = {}) {
      const parentContext = options.parent
        ? api.trace.setSpanContext(api.ROOT_CONTEXT, {
            traceId: options.parent.spanContext().traceId,
            spanId: options.parent.spanContext().spanId,
            traceFlags: api.TraceFlags.SAMPLED,
          })
        : api.ROOT_CONTEXT;
      const span = tracer.startSpan(name, { attributes: options.attributes }, parentContext);
      if (options.event) span.addEvent(options.event, { detail: 'value' });
      if (options.error) span.setStatus({ code: api.SpanStatusCode.ERROR, message: options.error });
      span.end();
      const finished = exporter.getFinishedSpans();
      const readable = finished[finished.length - 1];
      if (!readable || readable.name !== name) {
        throw new Error(`OTel SDK did not export span "${name}" synchronously`);
      }
      return readable;
    },
  };
}
