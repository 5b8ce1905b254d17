import { describe, expect, it } from 'vitest';
import { parseSpan, SpanSchema, ValidationError } from '../src/index.js';
import { SPAN_JSON, wire } from './fixtures.js';

const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as Error).message;
  }
  throw new Error('expected a ValidationError');
};

describe('Span', () => {
  it('round-trips the reference span JSON exactly', () => {
    expect(JSON.stringify(parseSpan(wire(SPAN_JSON)))).toBe(JSON.stringify(SPAN_JSON));
  });

  it('keeps unknown keys on the span and its nested models (extra="allow")', () => {
    const input = wire(SPAN_JSON);
    input.custom = { deep: [1, 2] };
    input.status = { status_code: 'ERROR', description: 'boom', code_namespace: 'x' };
    input.context = { ...(input.context as object), trace_flags: 1 };
    input.events = [{ name: 'e', attributes: {}, timestamp: 1, dropped: 0 }];
    input.links = [{ context: input.context, attributes: null, note: 'n' }];
    const span = parseSpan(input);
    expect(span.custom).toEqual({ deep: [1, 2] });
    expect(span.status).toEqual({ status_code: 'ERROR', description: 'boom', code_namespace: 'x' });
    expect(span.context?.trace_flags).toBe(1);
    expect(span.events[0]?.dropped).toBe(0);
    expect(span.links[0]?.note).toBe('n');
    expect(span.links[0]?.context.trace_flags).toBe(1);
    expect(JSON.parse(JSON.stringify(span))).toEqual(input);
  });

  it('drops unknown keys on the OTel resource, like upstream OtelResource', () => {
    const input = wire(SPAN_JSON);
    input.resource = { attributes: { 'service.name': 'svc' }, schema_url: 'u', extra: 1 };
    expect(parseSpan(input).resource).toEqual({
      attributes: { 'service.name': 'svc' },
      schema_url: 'u',
    });
  });

  it('returns a copy that does not share containers with its input', () => {
    const input = wire(SPAN_JSON);
    const span = parseSpan(input);
    span.attributes.added = true;
    expect(input.attributes).not.toHaveProperty('added');
  });

  it('fills nested defaults (status description, event timestamp, link attributes)', () => {
    const input = wire(SPAN_JSON);
    input.status = { status_code: 'UNSET' };
    input.events = [{ name: 'e', attributes: { k: 'v' } }];
    input.links = [{ context: input.context }];
    const span = parseSpan(input);
    expect(span.status).toEqual({ status_code: 'UNSET', description: null });
    expect(span.events).toEqual([{ name: 'e', attributes: { k: 'v' }, timestamp: null }]);
    expect(span.links[0]?.attributes).toBeNull();
  });

  it('requires every span field, though optional ones may be null', () => {
    const input = wire(SPAN_JSON);
    delete input.parent_id;
    delete input.context;
    expect(errorOf(() => parseSpan(input))).toBe(
      'span.parent_id: required (expected string); span.context: required (expected object)',
    );
  });

  it('converts nanosecond timestamps to seconds (upstream convert_timestamp)', () => {
    const input = wire(SPAN_JSON);
    input.start_time = 1734000001500000000;
    input.end_time = 1734000002.25;
    input.events = [{ name: 'e', attributes: {}, timestamp: 1734000001750000000 }];
    const span = parseSpan(input);
    expect(span.start_time).toBeCloseTo(1734000001.5, 6);
    expect(span.end_time).toBe(1734000002.25);
    expect(span.events[0]?.timestamp).toBeCloseTo(1734000001.75, 6);
    expect(parseSpan({ ...wire(SPAN_JSON), start_time: null }).start_time).toBeNull();
  });

  it('names the offending status code', () => {
    const input = wire(SPAN_JSON);
    input.status = { status_code: 'BAD', description: null };
    expect(errorOf(() => parseSpan(input))).toBe(
      'span.status.status_code: expected one of "UNSET" | "OK" | "ERROR", got "BAD"',
    );
  });

  it('accepts attribute scalars and homogeneous arrays only', () => {
    const attributes = {
      s: 'x',
      b: false,
      i: 3,
      f: 0.5,
      ss: ['a', 'b'],
      ns: [1, 2.5],
      bs: [true],
      empty: [],
    };
    expect(parseSpan({ ...wire(SPAN_JSON), attributes }).attributes).toEqual(attributes);
    for (const bad of [null, { a: 1 }, [1, 'a'], [null], [[1]]]) {
      const message = errorOf(() =>
        parseSpan({ ...wire(SPAN_JSON), attributes: { 'gen_ai.x': bad } }),
      );
      expect(message).toMatch(
        /^span\.attributes\["gen_ai\.x"\]: expected string, boolean, number or a homogeneous array/,
      );
    }
  });

  it('validates event and link attributes with an indexed path', () => {
    const input = wire(SPAN_JSON);
    input.events = [
      { name: 'ok', attributes: {} },
      { name: 'bad', attributes: { k: { nested: 1 } } },
    ];
    expect(errorOf(() => parseSpan(input))).toBe(
      'span.events[1].attributes.k: expected string, boolean, number or a homogeneous array of one of those, got object',
    );
  });

  it('rejects non-integer sequence ids and non-objects', () => {
    expect(errorOf(() => parseSpan({ ...wire(SPAN_JSON), sequence_id: 1.5 }))).toBe(
      'span.sequence_id: expected integer, got 1.5',
    );
    expect(errorOf(() => parseSpan('span'))).toBe('span: expected object, got "span"');
    expect(errorOf(() => parseSpan([]))).toBe('span: expected object, got array');
  });

  it('abbreviates long error lists', () => {
    expect(errorOf(() => parseSpan({}))).toMatch(/\(and 13 more\)$/);
  });

  it('agrees with the exported schema', () => {
    const input = { ...wire(SPAN_JSON), start_time: 1734000001500000000, extra: 'kept' };
    expect(parseSpan(input)).toEqual(SpanSchema.parse(input));
  });
});
