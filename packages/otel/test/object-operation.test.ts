import { ValidationError } from '@arclight/core';
import { describe, expect, it } from 'vitest';
import { emitObject, encodeObject, operation } from '../src/index.js';

const local = { propagate: false } as const;

describe('emitObject / encodeObject', () => {
  const cases: Array<[string, unknown, Record<string, string>]> = [
    [
      'str',
      'text',
      { 'agentlightning.object.type': 'str', 'agentlightning.object.literal': 'text' },
    ],
    ['int', 42, { 'agentlightning.object.type': 'int', 'agentlightning.object.literal': '42' }],
    [
      'big int',
      10n ** 30n,
      {
        'agentlightning.object.type': 'int',
        'agentlightning.object.literal': `1${'0'.repeat(30)}`,
      },
    ],
    [
      'large integral number',
      1e21,
      {
        'agentlightning.object.type': 'int',
        'agentlightning.object.literal': `1${'0'.repeat(21)}`,
      },
    ],
    [
      'float',
      1.5,
      { 'agentlightning.object.type': 'float', 'agentlightning.object.literal': '1.5' },
    ],
    [
      'nan',
      Number.NaN,
      { 'agentlightning.object.type': 'float', 'agentlightning.object.literal': 'nan' },
    ],
    [
      '-inf',
      Number.NEGATIVE_INFINITY,
      { 'agentlightning.object.type': 'float', 'agentlightning.object.literal': '-inf' },
    ],
    [
      'bool',
      true,
      { 'agentlightning.object.type': 'bool', 'agentlightning.object.literal': 'True' },
    ],
    [
      'bytes',
      new Uint8Array([104, 105, 0]),
      { 'agentlightning.object.type': 'bytes', 'agentlightning.object.literal': 'aGkA' },
    ],
    [
      'null',
      null,
      { 'agentlightning.object.type': 'NoneType', 'agentlightning.object.json': 'null' },
    ],
    [
      'list',
      [1, 'a', null],
      { 'agentlightning.object.type': 'list', 'agentlightning.object.json': '[1, "a", null]' },
    ],
    [
      'dict',
      { name: 'café', nested: { ok: false }, skip: undefined },
      {
        'agentlightning.object.type': 'dict',
        'agentlightning.object.json': '{"name": "caf\\u00e9", "nested": {"ok": false}}',
      },
    ],
    [
      'Date',
      new Date(0),
      {
        'agentlightning.object.type': 'Date',
        'agentlightning.object.json': '"1970-01-01T00:00:00.000Z"',
      },
    ],
  ];

  for (const [label, value, expected] of cases) {
    it(`encodes ${label} as upstream does`, () => {
      expect(encodeObject(value)).toEqual(expected);
      const span = emitObject(value, { source: 'test' }, local);
      expect(span.name).toBe('agentlightning.object');
      expect(span.status.status_code).toBe('OK');
      expect(span.attributes).toEqual({ ...expected, source: 'test' });
    });
  }

  it('rejects values JSON cannot hold', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => emitObject(cyclic, undefined, local)).toThrow(ValidationError);
    expect(() => emitObject(cyclic, undefined, local)).toThrow(
      'object.self is not JSON serializable: it contains a circular reference',
    );
    expect(() => emitObject({ n: 1n }, undefined, local)).toThrow(
      'object.n is not JSON serializable: BigInt values cannot be written as JSON',
    );
    expect(() => emitObject([new Map()], undefined, local)).toThrow(
      /object\[0\].*a Map cannot be written/,
    );
    expect(() => emitObject(() => 1, undefined, local)).toThrow(
      'object must be JSON serializable, got a function',
    );
  });
});

describe('operation (local)', () => {
  it('wraps a function transparently: arguments, this, return value, name', () => {
    const counter = {
      base: 10,
      add: operation(
        function add(this: { base: number }, a: number, b: { x: number[] }) {
          return { sum: this.base + a + b.x.length };
        },
        { ...local, category: 'math' },
      ),
    };
    expect(counter.add(1, { x: [1, 2] })).toEqual({ sum: 13 });
    expect(counter.add.name).toBe('add');
    expect(() => operation(null as unknown as () => void)).toThrow(
      'operation: fn must be a function',
    );
  });

  it('records inputs/outputs in the scoped form, and errors with status ERROR', async () => {
    let handle: Parameters<Parameters<typeof operation.scope>[1]>[0] | undefined;
    const result = await operation.scope(
      { ...local, name: 'lookup', team: { id: 7 } },
      async (op) => {
        handle = op;
        op.setInput('q', { k: 3 });
        op.setNamedInput({ query: 'weather', filters: ['today'] });
        op.setOutput(['sunny', 'warm']);
        return 'ok';
      },
    );
    expect(result).toBe('ok');
    const span = handle!.span();
    expect(span.name).toBe('agentlightning.operation');
    expect(span.status.status_code).toBe('OK');
    expect(span.attributes).toEqual({
      'agentlightning.operation.name': 'lookup',
      'team.id': 7,
      'agentlightning.operation.input.args.0': 'q',
      'agentlightning.operation.input.args.1.k': 3,
      'agentlightning.operation.input.query': 'weather',
      'agentlightning.operation.input.filters': ['today'],
      'agentlightning.operation.output': ['sunny', 'warm'],
    });

    await expect(
      operation.scope({ ...local }, async (op) => {
        handle = op;
        throw new RangeError('out of range');
      }),
    ).rejects.toThrow('out of range');
    const failed = handle!.span();
    expect(failed.status).toEqual({ status_code: 'ERROR', description: 'out of range' });
    expect(failed.attributes).toMatchObject({
      'exception.type': 'RangeError',
      'exception.message': 'out of range',
    });
  });

  it('refuses both name and agentlightning.operation.name', () => {
    expect(() =>
      operation.scope({ ...local, name: 'a', 'agentlightning.operation.name': 'b' }, () => 1),
    ).toThrow(/either name or 'agentlightning.operation.name'/);
  });
});
