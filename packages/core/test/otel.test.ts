import { context, createTraceState, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OtelSpanLike, parseSpan, spanFromOtel } from '../src/index.js';

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({
    resource: resourceFromAttributes(
      { 'service.name': 'agent', 'agentlightning.rollout_id': 'ro-1', 'x.list': ['a', 'b'] },
      { schemaUrl: 'https://opentelemetry.io/schemas/1.21.0' },
    ),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
});

afterEach(async () => {
  await provider.shutdown();
});

const finished = (name: string): ReadableSpan => {
  const span = exporter.getFinishedSpans().find((s) => s.name === name);
  if (!span) throw new Error(`no finished span named ${name}`);
  return span;
};

/** A parent span, a child with attributes/events/status, and a span linking to the child. */
function recordSpans(): void {
  const tracer = provider.getTracer('test');
  const parent = tracer.startSpan('parent', { startTime: [1734000000, 0] });
  const child = tracer.startSpan(
    'child',
    {
      startTime: [1734000001, 500_000_000],
      attributes: { 'gen_ai.usage.prompt_tokens': 12, tags: ['a', 'b'] },
    },
    trace.setSpan(context.active(), parent),
  );
  child.setAttribute('llm.is_streaming', false);
  child.addEvent('token', { index: 3 }, [1734000001, 750_000_000]);
  child.addEvent('bare', undefined, [1734000001, 800_000_000]);
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
  child.end([1734000002, 250_000_000]);
  const linker = tracer.startSpan('linker', {
    startTime: [1734000003, 0],
    links: [
      { context: child.spanContext(), attributes: { reason: 'follows' } },
      {
        context: {
          traceId: 'ABCDEF0123456789ABCDEF0123456789',
          spanId: '0123456789ABCDEF',
          traceFlags: TraceFlags.SAMPLED,
          isRemote: true,
          traceState: createTraceState('vendor=v1,other=o2'),
        },
      },
    ],
  });
  linker.setStatus({ code: SpanStatusCode.OK });
  linker.end([1734000003, 0]);
  parent.end([1734000004, 0]);
}

describe('spanFromOtel', () => {
  it('converts ids, parent, times, status, attributes, events and resource', () => {
    recordSpans();
    const source = finished('child');
    const parentSource = finished('parent');
    const span = spanFromOtel(source, 'ro-1', 'at-1', 7);

    expect(span.rollout_id).toBe('ro-1');
    expect(span.attempt_id).toBe('at-1');
    expect(span.sequence_id).toBe(7);
    expect(span.name).toBe('child');
    expect(span.trace_id).toBe(source.spanContext().traceId);
    expect(span.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(span.span_id).toBe(source.spanContext().spanId);
    expect(span.span_id).toMatch(/^[0-9a-f]{16}$/);
    expect(span.parent_id).toBe(parentSource.spanContext().spanId);
    expect(span.context).toEqual({
      trace_id: span.trace_id,
      span_id: span.span_id,
      is_remote: false,
      trace_state: {},
    });
    expect(span.parent).toEqual({
      trace_id: span.trace_id,
      span_id: parentSource.spanContext().spanId,
      is_remote: false,
      trace_state: {},
    });
    expect(span.start_time).toBeCloseTo(1734000001.5, 6);
    expect(span.end_time).toBeCloseTo(1734000002.25, 6);
    expect(span.status).toEqual({ status_code: 'ERROR', description: 'boom' });
    expect(span.attributes).toEqual({
      'gen_ai.usage.prompt_tokens': 12,
      tags: ['a', 'b'],
      'llm.is_streaming': false,
    });
    expect(span.events).toHaveLength(2);
    expect(span.events[0]?.name).toBe('token');
    expect(span.events[0]?.attributes).toEqual({ index: 3 });
    expect(span.events[0]?.timestamp).toBeCloseTo(1734000001.75, 6);
    expect(span.events[1]?.attributes).toEqual({});
    expect(span.links).toEqual([]);
    expect(span.resource.schema_url).toBe('https://opentelemetry.io/schemas/1.21.0');
    expect(span.resource.attributes).toMatchObject({
      'service.name': 'agent',
      'agentlightning.rollout_id': 'ro-1',
      'x.list': ['a', 'b'],
    });
  });

  it('converts links with lowercase ids, trace state and optional attributes', () => {
    recordSpans();
    const child = finished('child');
    const span = spanFromOtel(finished('linker'), 'ro-1', 'at-1', 1);
    expect(span.status).toEqual({ status_code: 'OK', description: null });
    expect(span.links).toEqual([
      {
        context: {
          trace_id: child.spanContext().traceId,
          span_id: child.spanContext().spanId,
          is_remote: false,
          trace_state: {},
        },
        attributes: { reason: 'follows' },
      },
      {
        context: {
          trace_id: 'abcdef0123456789abcdef0123456789',
          span_id: '0123456789abcdef',
          is_remote: true,
          trace_state: { vendor: 'v1', other: 'o2' },
        },
        attributes: null,
      },
    ]);
  });

  it('gives a root span no parent and an unset status', () => {
    recordSpans();
    const span = spanFromOtel(finished('parent'), 'ro-1', 'at-1', 0);
    expect(span.parent_id).toBeNull();
    expect(span.parent).toBeNull();
    expect(span.status).toEqual({ status_code: 'UNSET', description: null });
  });

  it('produces JSON that validates and round-trips through parseSpan', () => {
    recordSpans();
    for (const source of exporter.getFinishedSpans()) {
      const span = spanFromOtel(source, 'ro-1', 'at-1', 1);
      const json = JSON.parse(JSON.stringify(span)) as unknown;
      expect(parseSpan(json)).toEqual(span);
    }
  });

  it('accepts SDK 1.x-shaped spans (parentSpanId only) and cleans attribute values', () => {
    const legacy: OtelSpanLike = {
      name: 'legacy',
      spanContext: () => ({ traceId: 'A'.repeat(32), spanId: 'B'.repeat(16) }),
      parentSpanId: 'C'.repeat(16),
      startTime: [0, 0],
      endTime: [1734000000, 1],
      status: { code: 7 },
      attributes: { keep: 1, gone: undefined, holes: [1, null, 2, undefined] },
      events: [],
      links: [],
      resource: { attributes: { odd: { nested: true }, ok: 'y' } },
    };
    const span = spanFromOtel(legacy, 'r', 'a', 2);
    expect(span.trace_id).toBe('a'.repeat(32));
    expect(span.parent_id).toBe('c'.repeat(16));
    expect(span.parent).toEqual({
      trace_id: 'a'.repeat(32),
      span_id: 'c'.repeat(16),
      is_remote: false,
      trace_state: {},
    });
    expect(span.start_time).toBeNull();
    expect(span.end_time).toBeCloseTo(1734000000, 6);
    expect(span.status.status_code).toBe('UNSET');
    expect(span.attributes).toEqual({ keep: 1, holes: [1, 2] });
    expect(span.resource).toEqual({ attributes: { ok: 'y' }, schema_url: '' });
  });
});
