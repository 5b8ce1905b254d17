import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../src/http/limits.js';
import { decodeProtobufTraces } from '../src/index.js';
import { otlpTypes } from '../src/otlp/proto-schema.js';

/**
 * The server's one-pass protobuf decoder against an independent encoder (protobufjs over the OTLP schema): random
 * export requests, encoded by protobufjs, must decode to exactly the values they were built from.
 */

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** An `AnyValue` (protobufjs object) and the JSON value the decoder must produce for it. */
interface ValueCase {
  proto: Record<string, unknown>;
  json: Json;
}

const scalar: fc.Arbitrary<ValueCase> = fc.oneof(
  fc
    .string({ unit: 'grapheme', maxLength: 12 })
    .map((s) => ({ proto: { string_value: s }, json: s })),
  fc.boolean().map((b) => ({ proto: { bool_value: b }, json: b })),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((n) => ({
    proto: { int_value: n.toString() },
    json:
      n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER)
        ? Number(n)
        : n.toString(),
  })),
  fc.integer({ min: -1000, max: 1000 }).map((n) => ({ proto: { int_value: n }, json: n })),
  fc.double().map((d) => ({
    proto: { double_value: d },
    json: Number.isFinite(d) ? (Object.is(d, -0) ? -0 : d) : String(d),
  })),
  fc.uint8Array({ maxLength: 6 }).map((b) => ({
    proto: { bytes_value: Buffer.from(b) },
    json: Buffer.from(b).toString('hex'),
  })),
  fc.constant({ proto: {}, json: null }),
);

const { value: anyValue } = fc.letrec<{ value: ValueCase }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }).map((items) => ({
      proto: { array_value: { values: items.map((i) => i.proto) } },
      json: items.map((i) => i.json),
    })),
    fc
      .uniqueArray(fc.tuple(fc.string({ maxLength: 5 }), tie('value')), {
        maxLength: 3,
        selector: ([key]) => key,
      })
      .map((entries) => ({
        proto: { kvlist_value: { values: entries.map(([key, v]) => ({ key, value: v.proto })) } },
        json: Object.fromEntries(entries.map(([key, v]) => [key, v.json])),
      })),
  ),
}));

const attributes = fc
  .uniqueArray(fc.tuple(fc.string({ maxLength: 8 }), anyValue), {
    maxLength: 4,
    selector: ([key]) => key,
  })
  .map((entries) => ({
    proto: entries.map(([key, v]) => ({ key, value: v.proto })),
    json: Object.fromEntries(entries.map(([key, v]) => [key, v.json])),
  }));

const bytesOf = (min: number, max: number) =>
  fc.uint8Array({ minLength: min, maxLength: max }).map((b) => Buffer.from(b));
const nanos = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });

const spanCase = fc
  .record({
    traceId: bytesOf(1, 16),
    spanId: bytesOf(1, 8),
    parent: bytesOf(0, 8),
    name: fc.string({ maxLength: 10 }),
    code: fc.integer({ min: 0, max: 2 }),
    message: fc.string({ maxLength: 6 }),
    start: nanos,
    end: nanos,
    attributes,
    events: fc.array(fc.record({ name: fc.string({ maxLength: 5 }), time: nanos, attributes }), {
      maxLength: 2,
    }),
    links: fc.array(fc.record({ traceId: bytesOf(0, 16), spanId: bytesOf(0, 8), attributes }), {
      maxLength: 2,
    }),
  })
  .map((s) => ({
    proto: {
      trace_id: s.traceId,
      span_id: s.spanId,
      parent_span_id: s.parent,
      name: s.name,
      kind: 2,
      flags: 1,
      start_time_unix_nano: s.start.toString(),
      end_time_unix_nano: s.end.toString(),
      status: { code: s.code, message: s.message },
      attributes: s.attributes.proto,
      events: s.events.map((e) => ({
        name: e.name,
        time_unix_nano: e.time.toString(),
        attributes: e.attributes.proto,
      })),
      links: s.links.map((l) => ({
        trace_id: l.traceId,
        span_id: l.spanId,
        trace_state: 'k=v',
        attributes: l.attributes.proto,
      })),
    },
    decoded: {
      traceId: s.traceId.toString('hex').padStart(32, '0'),
      spanId: s.spanId.toString('hex').padStart(16, '0'),
      parentSpanId: s.parent.length > 0 ? s.parent.toString('hex').padStart(16, '0') : null,
      name: s.name,
      statusCode: s.code,
      statusMessage: s.message,
      startTimeUnixNano: s.start,
      endTimeUnixNano: s.end,
      attributes: s.attributes.json,
      events: s.events.map((e) => ({
        name: e.name,
        timeUnixNano: e.time,
        attributes: e.attributes.json,
      })),
      links: s.links.map((l) => ({
        traceId: l.traceId.toString('hex').padStart(32, '0'),
        spanId: l.spanId.toString('hex').padStart(16, '0'),
        attributes: l.attributes.json,
      })),
    },
  }));

const requestCase = fc.array(
  fc.record({
    resource: attributes,
    schemaUrl: fc.string({ maxLength: 8 }),
    scopes: fc.array(fc.array(spanCase, { maxLength: 3 }), { maxLength: 2 }),
  }),
  { maxLength: 3 },
);

describe('protobuf decoding: one pass over the wire', () => {
  it('agrees with protobufjs-encoded random export requests, field by field', () => {
    const { request } = otlpTypes();
    fc.assert(
      fc.property(requestCase, (resourceSpans) => {
        const message = request.fromObject({
          resource_spans: resourceSpans.map((rs) => ({
            resource: { attributes: rs.resource.proto, dropped_attributes_count: 1 },
            schema_url: rs.schemaUrl,
            scope_spans: rs.scopes.map((spans) => ({
              scope: { name: 'lib', version: '1', attributes: rs.resource.proto },
              spans: spans.map((s) => s.proto),
            })),
          })),
        });
        const decoded = decodeProtobufTraces(request.encode(message).finish());
        expect(decoded).toEqual(
          resourceSpans.map((rs) => ({
            resourceAttributes: rs.resource.json,
            schemaUrl: rs.schemaUrl,
            spans: rs.scopes.flatMap((spans) => spans.map((s) => s.decoded)),
          })),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('invalid UTF-8 in a string field is a decode error; U+FFFD itself is fine', () => {
    const { request } = otlpTypes();
    const valid = request
      .encode(
        request.fromObject({
          resource_spans: [
            { scope_spans: [{ spans: [{ trace_id: [1], span_id: [2], name: 'a\uFFFDb' }] }] },
          ],
        }),
      )
      .finish();
    expect(decodeProtobufTraces(valid)[0]!.spans[0]!.name).toBe('a\uFFFDb');
    const bytes = Buffer.from(valid);
    const at = bytes.indexOf(Buffer.from('a\uFFFDb'));
    bytes[at + 1] = 0xff; // the first byte of U+FFFD's three becomes an invalid lead byte
    expect(() => decodeProtobufTraces(bytes)).toThrow(/invalid UTF-8/);
  });

  it('short strings shared between requests come back exact: same slot, non-ASCII and invalid UTF-8 included', () => {
    const { request } = otlpTypes();
    // Same length, first 4 and last 8 bytes: these differ only where the shared table does not hash.
    const keys = Array.from({ length: 300 }, (_, i) => `gen_${String(i).padStart(4, '0')}.content`);
    const strings = [
      ...keys,
      'gen_00\u00e9.content', // 16 bytes too, not ASCII
      'x'.repeat(64),
      `${'x'.repeat(63)}y`,
      'y'.repeat(65),
      '\u00e9t\u00e9',
      '',
    ];
    const encode = (names: string[]) =>
      request
        .encode(
          request.fromObject({
            resource_spans: [
              {
                scope_spans: [
                  {
                    spans: names.map((name, i) => ({
                      trace_id: [1],
                      span_id: [i + 1],
                      name,
                      attributes: [{ key: name, value: { string_value: name } }],
                    })),
                  },
                ],
              },
            ],
          }),
        )
        .finish();
    // Twice in each order, so that every string is decoded both into an empty and into an occupied slot.
    for (const names of [strings, strings, [...strings].reverse(), [...strings].reverse()]) {
      const spans = decodeProtobufTraces(encode(names))[0]!.spans;
      expect(spans.map((s) => s.name)).toEqual(names);
      expect(spans.map((s) => s.attributes)).toEqual(names.map((name) => ({ [name]: name })));
    }
    // A short string that is invalid UTF-8 is refused, even right after its ASCII look-alike was shared.
    const bytes = Buffer.from(encode(['gen_0042.content', 'gen_00\u00e9.content']));
    const at = bytes.indexOf(Buffer.from('gen_00\u00e9.content'));
    bytes[at + 7] = 0x41; // the continuation byte of é: 0xc3 is now followed by 'A'
    expect(() => decodeProtobufTraces(bytes)).toThrow(/invalid UTF-8/);
  });

  it('limit and id errors name the span (by index) and the part of it', () => {
    const { request } = otlpTypes();
    const two = [
      { key: 'a', value: { string_value: 'x' } },
      { key: 'b', value: { string_value: 'y' } },
    ];
    const ok = { trace_id: [1], span_id: [1] };
    const encode = (resource: unknown[], spans: unknown[]) =>
      request
        .encode(
          request.fromObject({
            resource_spans: [{ resource: { attributes: resource }, scope_spans: [{ spans }] }],
          }),
        )
        .finish();
    const limits = {
      ...DEFAULT_LIMITS,
      maxAttributesPerSpan: 1,
      maxDecompressedBytes: Number.MAX_SAFE_INTEGER,
    };
    const cases: Array<[Uint8Array, string]> = [
      [encode(two, []), 'Number of attributes of resource'],
      [encode([], [ok, { ...ok, attributes: two }]), 'Number of attributes of span #1 '],
      [encode([], [{ ...ok, events: [{ name: 'e', attributes: two }] }]), 'of span #0 event'],
      [
        encode([], [{ ...ok, links: [{ trace_id: [1], span_id: [2], attributes: two }] }]),
        'of span #0 link',
      ],
      [encode([], [ok, ok, { span_id: [1] }]), 'span #2: trace_id is missing or empty'],
      [
        encode([], [{ trace_id: [1], span_id: Array(9).fill(1) }]),
        'span #0: span_id is 9 bytes, expected at most 8',
      ],
    ];
    for (const [body, message] of cases) {
      expect(() => decodeProtobufTraces(body, limits)).toThrow(message);
    }
  });
});
