import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
  type TracerConfig,
} from '@opentelemetry/sdk-trace-base';

/** Exports `spans` with `exporter` and resolves to the SDK's ExportResult. */
export function exportSpans(exporter: SpanExporter, spans: ReadableSpan[]) {
  return new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(spans, resolve));
}

/**
 * Records spans with a real SDK tracer: a parent `agent` with an event, an `llm` child with an error status and
 * a link, and (optionally) a third span whose own attributes redirect it to another rollout.
 */
export async function recordSpans(
  resourceAttributes: Record<string, string | number>,
  override?: Record<string, string | number>,
): Promise<ReadableSpan[]> {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    // This package's node_modules holds a newer @opentelemetry/resources (pulled in by otlp-transformer) than
    // the root's sdk-trace-base declares; the two Resource types are structurally equivalent at runtime.
    resource: resourceFromAttributes({
      'service.name': 'arclight-test',
      ...resourceAttributes,
    }) as unknown as TracerConfig['resource'],
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  const tracer = provider.getTracer('arclight-server-test');
  const parent = tracer.startSpan('agent', {
    attributes: { 'agent.kind': 'test', 'agent.tags': ['a', 'b'] },
  });
  parent.addEvent('thinking', { step: 1 });
  const ctx = trace.setSpan(context.active(), parent);
  const child = tracer.startSpan(
    'llm',
    {
      attributes: { 'gen_ai.usage.total_tokens': 42, 'gen_ai.temperature': 0.5, ok: true },
      links: [{ context: parent.spanContext(), attributes: { why: 'because' } }],
    },
    ctx,
  );
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'rate limited' });
  child.end();
  if (override) {
    const other = tracer.startSpan('redirected', { attributes: override }, ctx);
    other.end();
  }
  parent.end();
  await provider.forceFlush();
  const spans = memory.getFinishedSpans();
  await provider.shutdown();
  return spans;
}
