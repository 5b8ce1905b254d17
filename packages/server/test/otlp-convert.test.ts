import { InMemoryLightningStore } from '@arclight/store';
import { describe, expect, it } from 'vitest';
import {
  decodeJsonTraces,
  decodeProtobufTraces,
  ingestOtlpSpans,
  otlpToSpans,
} from '../src/index.js';
import { otlpTypes } from '../src/otlp/proto-schema.js';

const kv = (key: string, value: Record<string, unknown>) => ({ key, value });
const str = (s: string) => ({ stringValue: s });

function request(resourceAttrs: unknown[], spans: unknown[]) {
  return {
    resourceSpans: [
      {
        resource: { attributes: resourceAttrs },
        schemaUrl: 'https://schema',
        scopeSpans: [{ spans }],
      },
    ],
  };
}

const ATTRIBUTION = [
  kv('agentlightning.rollout_id', str('ro-1')),
  kv('agentlightning.attempt_id', str('at-1')),
];

describe('OTLP/JSON conversion (upstream utils/otlp.py rules)', () => {
  it('ids are lowercase, zero-padded hex; empty parent → null; status map; times in seconds', () => {
    const data = decodeJsonTraces(
      request(ATTRIBUTION, [
        {
          traceId: 'ABCDEF',
          spanId: 'FF',
          parentSpanId: '',
          name: 'root',
          startTimeUnixNano: '1734000001500000000',
          endTimeUnixNano: 1734000002000000000,
          status: { code: 'STATUS_CODE_OK' },
        },
        {
          traceId: '00',
          spanId: '01',
          parentSpanId: 'aa',
          name: 'child',
          status: { code: 2, message: 'bad' },
        },
        { traceId: '01', spanId: '02', name: 'weird', status: { code: 9 } },
      ]),
    );
    const { spans, unattributed } = otlpToSpans(data);
    expect(unattributed).toBe(0);
    const [root, child, weird] = spans;
    expect(root).toMatchObject({
      rollout_id: 'ro-1',
      attempt_id: 'at-1',
      sequence_id: -1,
      trace_id: `${'0'.repeat(26)}abcdef`,
      span_id: `${'0'.repeat(14)}ff`,
      parent_id: null,
      status: { status_code: 'OK', description: null },
      start_time: 1734000001.5,
      end_time: 1734000002,
      parent: null,
      context: {
        trace_id: `${'0'.repeat(26)}abcdef`,
        span_id: `${'0'.repeat(14)}ff`,
        is_remote: false,
        trace_state: {},
      },
      resource: { schema_url: 'https://schema' },
    });
    expect(child).toMatchObject({
      trace_id: '0'.repeat(32),
      parent_id: `${'0'.repeat(14)}aa`,
      status: { status_code: 'ERROR', description: 'bad' },
      start_time: null,
      end_time: null,
    });
    expect(weird!.status.status_code).toBe('UNSET');
  });

  it('AnyValue → JSON: bytes → hex, kvlist → object, arrays, int64 as number or string, empty → null', () => {
    const data = decodeJsonTraces(
      request(ATTRIBUTION, [
        {
          traceId: '01',
          spanId: '01',
          name: 's',
          attributes: [
            kv('bytes', { bytesValue: Buffer.from([0xde, 0xad, 0xbe, 0xef]).toString('base64') }),
            kv('kv', {
              kvlistValue: {
                values: [kv('inner', { intValue: '7' }), kv('flag', { boolValue: false })],
              },
            }),
            kv('arr', { arrayValue: { values: [str('a'), str('b')] } }),
            kv('big', { intValue: '9223372036854775807' }),
            kv('small', { intValue: -5 }),
            kv('dbl', { doubleValue: 2.5 }),
            kv('nan', { doubleValue: 'NaN' }),
            kv('empty', {}),
            kv('__proto__', { stringValue: 'not a prototype' }),
          ],
          events: [
            { name: 'e', timeUnixNano: '1000000000000000000', attributes: [kv('x', str('y'))] },
          ],
          links: [{ traceId: '02', spanId: '03' }],
        },
      ]),
    );
    const [span] = otlpToSpans(data).spans;
    expect(span!.attributes).toMatchObject({
      bytes: 'deadbeef',
      kv: { inner: 7, flag: false },
      arr: ['a', 'b'],
      big: '9223372036854775807',
      small: -5,
      dbl: 2.5,
      nan: 'NaN',
      empty: null,
    });
    expect(Object.getPrototypeOf(span!.attributes)).toBe(Object.prototype);
    expect(Object.hasOwn(span!.attributes, '__proto__')).toBe(true);
    expect(span!.events).toEqual([{ name: 'e', attributes: { x: 'y' }, timestamp: 1e9 }]);
    expect(span!.links).toEqual([
      {
        context: {
          trace_id: `${'0'.repeat(30)}02`,
          span_id: `${'0'.repeat(14)}03`,
          is_remote: false,
          trace_state: {},
        },
        attributes: null,
      },
    ]);
  });

  it('attribution: span attributes override the resource; sequence ids parsed like int(str(v))', () => {
    const data = decodeJsonTraces(
      request(
        [...ATTRIBUTION, kv('agentlightning.span_sequence_id', str('5'))],
        [
          { traceId: '01', spanId: '01', name: 'inherits' },
          {
            traceId: '01',
            spanId: '02',
            name: 'overrides',
            attributes: [
              kv('agentlightning.attempt_id', str('at-2')),
              kv('agentlightning.span_sequence_id', { intValue: 9 }),
            ],
          },
          {
            traceId: '01',
            spanId: '03',
            name: 'negative',
            attributes: [kv('agentlightning.span_sequence_id', { intValue: -1 })],
          },
          {
            traceId: '01',
            spanId: '04',
            name: 'float',
            attributes: [kv('agentlightning.span_sequence_id', { doubleValue: 1.5 })],
          },
        ],
      ),
    );
    const spans = otlpToSpans(data).spans;
    expect(spans.map((s) => [s.name, s.attempt_id, s.sequence_id])).toEqual([
      ['inherits', 'at-1', 5],
      ['overrides', 'at-2', 9],
      ['negative', 'at-1', -1],
      ['float', 'at-1', -1],
    ]);
  });

  it('spans without rollout or attempt id are counted as unattributed', () => {
    const data = decodeJsonTraces(
      request(
        [kv('agentlightning.rollout_id', str('ro-1'))],
        [
          { traceId: '01', spanId: '01', name: 'no attempt' },
          {
            traceId: '01',
            spanId: '02',
            name: 'has attempt',
            attributes: [kv('agentlightning.attempt_id', str('at-1'))],
          },
        ],
      ),
    );
    const { spans, unattributed } = otlpToSpans(data);
    expect(unattributed).toBe(1);
    expect(spans.map((s) => s.name)).toEqual(['has attempt']);
  });

  it('snake_case field names (protobuf JSON mapping) are accepted too', () => {
    const data = decodeJsonTraces({
      resource_spans: [
        {
          resource: { attributes: ATTRIBUTION },
          scope_spans: [{ spans: [{ trace_id: '0a', span_id: '0b', name: 'n' }] }],
        },
      ],
    });
    expect(otlpToSpans(data).spans[0]!.span_id).toBe(`${'0'.repeat(14)}0b`);
  });
});

describe('protobuf decoding', () => {
  it('decodes bytes, kvlist, int64 and fixed64 times', () => {
    const { request: type } = otlpTypes();
    const message = type.fromObject({
      resource_spans: [
        {
          resource: {
            attributes: [
              { key: 'agentlightning.rollout_id', value: { string_value: 'ro-1' } },
              { key: 'agentlightning.attempt_id', value: { string_value: 'at-1' } },
            ],
          },
          scope_spans: [
            {
              spans: [
                {
                  trace_id: Buffer.from('0102', 'hex'),
                  span_id: Buffer.from('0a', 'hex'),
                  name: 'p',
                  start_time_unix_nano: '1734000001250000000',
                  status: { code: 1 },
                  attributes: [
                    { key: 'b', value: { bytes_value: Buffer.from([1, 255]) } },
                    { key: 'i', value: { int_value: '-9007199254740993' } },
                    { key: 'zero', value: { int_value: 0 } },
                    {
                      key: 'kv',
                      value: {
                        kvlist_value: { values: [{ key: 'x', value: { double_value: 1.25 } }] },
                      },
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    const bytes = type.encode(message).finish();
    const [span] = otlpToSpans(decodeProtobufTraces(bytes)).spans;
    expect(span).toMatchObject({
      trace_id: `${'0'.repeat(28)}0102`,
      span_id: `${'0'.repeat(14)}0a`,
      start_time: 1734000001.25,
      end_time: null,
      status: { status_code: 'OK', description: null },
      attributes: { b: '01ff', i: '-9007199254740993', zero: 0, kv: { x: 1.25 } },
    });
  });
});

describe('ingestion', () => {
  it('allocates missing sequence ids in bulk and keeps given ones', async () => {
    const store = new InMemoryLightningStore();
    const rollout = await store.startRollout({ input: 1 });
    const attrs = [
      kv('agentlightning.rollout_id', str(rollout.rollout_id)),
      kv('agentlightning.attempt_id', str(rollout.attempt.attempt_id)),
    ];
    const data = decodeJsonTraces(
      request(attrs, [
        { traceId: '01', spanId: '01', name: 'a' },
        {
          traceId: '01',
          spanId: '02',
          name: 'b',
          attributes: [kv('agentlightning.span_sequence_id', str('40'))],
        },
        { traceId: '01', spanId: '03', name: 'c' },
      ]),
    );
    const result = await ingestOtlpSpans(store, otlpToSpans(data));
    expect(result).toEqual({ accepted: 3, rejected: 0, errorMessage: '' });
    const stored = (await store.querySpans(rollout.rollout_id, { sort_by: 'name' })).items;
    const seq = Object.fromEntries(stored.map((s) => [s.name, s.sequence_id]));
    expect(seq.b).toBe(40);
    expect(seq.a).toBeGreaterThanOrEqual(1);
    expect(seq.c).toBe(seq.a! + 1);
    await store.close();
  });
});
