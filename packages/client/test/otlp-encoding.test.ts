import type { Attributes, AttributeValue, OtelResource, Span, SpanContext } from '@arclight/core';
import { decodeProtobufTraces, otlpToSpans } from '@arclight/server';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { encodeSpansAsOtlp } from '../src/index.js';

// The client's own OTLP encoder against @opentelemetry/otlp-transformer's serializer (fed the same spans as SDK
// ReadableSpan look-alikes) and against the server's decoder, on random spans.

/** A seeded PRNG (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TEXTS = [
  '',
  'a',
  'héllo wörld',
  '日本語のテキスト',
  'emoji 🎉🚀',
  'tab\tnew\nline',
  'x'.repeat(200),
];

function generator(seed: number) {
  const next = random(seed);
  const int = (n: number): number => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const hex = (chars: number): string =>
    Array.from({ length: chars }, () => '0123456789abcdef'[int(16)]).join('');
  const text = (): string =>
    int(10) === 0 ? 'ü'.repeat(int(20_000)) : `${pick(TEXTS)}${int(3) === 0 ? int(1e6) : ''}`;
  const scalar = (): AttributeValue => {
    switch (int(8)) {
      case 0:
        return next() < 0.5;
      case 1:
        return int(2 ** 31) - 2 ** 30;
      case 2:
        return pick([0, -1, 2 ** 32, -(2 ** 40) - 7, Number.MAX_SAFE_INTEGER, -(2 ** 53) + 1]);
      case 3:
        return pick([0.5, -1.25e-7, 1e300, 2 ** 63, Number.NaN, Math.PI]);
      default:
        return text();
    }
  };
  const value = (): AttributeValue =>
    int(6) === 0 ? (Array.from({ length: int(4) }, () => scalar()) as AttributeValue) : scalar();
  const attributes = (max: number): Attributes => {
    const out: Attributes = {};
    for (let i = int(max); i > 0; i--)
      out[pick(['k', 'gen_ai.prompt', 'ключ', '7', `key${int(50)}`])] = value();
    return out;
  };
  const time = (): number | null =>
    pick([null, 0, 1_765_000_000 + next(), 1_700_000_000.123456, 4_102_444_800.999_999]);
  const context = (traceId: string, spanId: string): SpanContext | null =>
    int(3) === 0
      ? null
      : {
          trace_id: traceId,
          span_id: spanId,
          is_remote: next() < 0.5,
          trace_state: int(2) === 0 ? {} : { vendor: 'a1', other: text().replace(/[,=]/g, '') },
        };
  const span = (sequence: number): Span => {
    const traceId = hex(32);
    const spanId = hex(16);
    const parentId = int(2) === 0 ? null : hex(16);
    const own = attributes(6);
    if (int(5) === 0) own['agentlightning.attempt_id'] = 'stale';
    return {
      rollout_id: `ro-${pick(['a', 'ü', '1'])}`,
      attempt_id: `at-${int(3)}`,
      sequence_id: sequence,
      trace_id: traceId,
      span_id: spanId,
      parent_id: parentId,
      name: text(),
      status: {
        status_code: pick(['UNSET', 'OK', 'ERROR'] as const),
        description: pick([null, '', 'failed: ß']),
      },
      attributes: own,
      events: Array.from({ length: int(3) }, () => ({
        name: text(),
        attributes: attributes(3),
        timestamp: time(),
      })),
      links: Array.from({ length: int(3) }, () => ({
        context: context(hex(32), hex(16)) ?? {
          trace_id: hex(32),
          span_id: hex(16),
          is_remote: false,
          trace_state: {},
        },
        attributes: int(2) === 0 ? null : attributes(2),
      })),
      start_time: time(),
      end_time: time(),
      context: context(traceId, spanId),
      parent: parentId === null ? null : context(traceId, parentId),
      resource: pick<OtelResource>([
        { attributes: {}, schema_url: '' },
        {
          attributes: { 'service.name': 'svc' },
          schema_url: 'https://opentelemetry.io/schemas/1.24.0',
        },
        { attributes: { 'service.name': 'サービス', n: 3 }, schema_url: '' },
      ]),
    };
  };
  return { span, int };
}

// --- the reference: the spans as the SDK ReadableSpans otlp-transformer serializes -----------------------

const SCOPE = { name: 'arclight.client' };

function hrTime(seconds: number | null): [number, number] {
  if (seconds == null || !Number.isFinite(seconds) || seconds <= 0) return [0, 0];
  const whole = Math.floor(seconds);
  const nanos = Math.round((seconds - whole) * 1e9);
  return nanos >= 1e9 ? [whole + 1, nanos - 1e9] : [whole, Math.max(nanos, 0)];
}

function sdkContext(traceId: string, spanId: string, source: SpanContext | null) {
  const entries = Object.entries(source?.trace_state ?? {});
  return {
    traceId,
    spanId,
    traceFlags: 1,
    isRemote: source?.is_remote ?? false,
    traceState:
      entries.length > 0
        ? { serialize: () => entries.map(([k, v]) => `${k}=${v}`).join(',') }
        : undefined,
  };
}

function referenceEncoding(spans: Span[]): Uint8Array {
  const resources = new Map<string, object>();
  const sdkSpans = spans.map((span) => {
    const key = JSON.stringify([span.resource.attributes, span.resource.schema_url]);
    if (!resources.has(key)) {
      resources.set(key, {
        attributes: span.resource.attributes,
        schemaUrl: span.resource.schema_url || undefined,
      });
    }
    const context = sdkContext(span.trace_id, span.span_id, span.context);
    return {
      name: span.name,
      kind: undefined,
      spanContext: () => context,
      parentSpanContext:
        span.parent_id != null ? sdkContext(span.trace_id, span.parent_id, span.parent) : undefined,
      startTime: hrTime(span.start_time),
      endTime: hrTime(span.end_time),
      status: {
        code: { UNSET: 0, OK: 1, ERROR: 2 }[span.status.status_code],
        message: span.status.description ?? undefined,
      },
      attributes: {
        ...span.attributes,
        'agentlightning.rollout_id': span.rollout_id,
        'agentlightning.attempt_id': span.attempt_id,
        'agentlightning.span_sequence_id': span.sequence_id,
      },
      events: span.events.map((event) => ({
        name: event.name,
        time: hrTime(event.timestamp),
        attributes: event.attributes,
        droppedAttributesCount: 0,
      })),
      links: span.links.map((link) => ({
        context: sdkContext(link.context.trace_id, link.context.span_id, link.context),
        attributes: link.attributes ?? undefined,
        droppedAttributesCount: 0,
      })),
      resource: resources.get(key),
      instrumentationScope: SCOPE,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    };
  });
  type SdkSpans = Parameters<typeof ProtobufTraceSerializer.serializeRequest>[0];
  return ProtobufTraceSerializer.serializeRequest(sdkSpans as unknown as SdkSpans)!;
}

describe('encodeSpansAsOtlp', () => {
  it('writes the bytes otlp-transformer writes, for 300 random batches (non-ASCII, long strings, odd numbers)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const { span, int } = generator(seed);
      const spans = Array.from({ length: 1 + int(12) }, (_, i) => span(i));
      const ours = encodeSpansAsOtlp(spans);
      const reference = referenceEncoding(spans);
      if (Buffer.compare(Buffer.from(ours), Buffer.from(reference)) !== 0) {
        throw new Error(
          `seed ${seed}: ${ours.length} bytes differ from the reference's ${reference.length}`,
        );
      }
    }
  });

  it("decodes with the server's decoder to the spans it was given", () => {
    const { span } = generator(4242);
    const spans = Array.from({ length: 50 }, (_, i) => span(i));
    const converted = otlpToSpans(decodeProtobufTraces(encodeSpansAsOtlp(spans)));
    expect(converted.unattributed).toBe(0);
    // Grouped by resource on the wire: back in sequence order.
    const decoded = converted.spans.sort((a, b) => a.sequence_id - b.sequence_id);
    expect(
      decoded.map((s) => [s.rollout_id, s.attempt_id, s.sequence_id, s.span_id, s.name]),
    ).toEqual(spans.map((s) => [s.rollout_id, s.attempt_id, s.sequence_id, s.span_id, s.name]));
    expect(decoded.map((s) => s.parent_id)).toEqual(spans.map((s) => s.parent_id));
    expect(decoded.map((s) => s.status.status_code)).toEqual(
      spans.map((s) => s.status.status_code),
    );
    expect(decoded.map((s) => s.events.length)).toEqual(spans.map((s) => s.events.length));
    expect(decoded.map((s) => s.resource.schema_url)).toEqual(
      spans.map((s) => s.resource.schema_url),
    );
  });

  it('keeps an id attribute already among the span attributes in its place, with the span’s id', () => {
    const { span } = generator(7);
    const one = {
      ...span(0),
      attributes: { first: 1, 'agentlightning.rollout_id': 'other', last: 2 },
    };
    const [decoded] = otlpToSpans(decodeProtobufTraces(encodeSpansAsOtlp([one]))).spans;
    expect(Object.keys(decoded!.attributes).slice(0, 3)).toEqual([
      'first',
      'agentlightning.rollout_id',
      'last',
    ]);
    expect(decoded!.rollout_id).toBe(one.rollout_id);
    expect(Buffer.from(encodeSpansAsOtlp([one]))).toEqual(Buffer.from(referenceEncoding([one])));
  });
});
