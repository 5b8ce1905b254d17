import { describe, expect, it } from 'vitest';
import {
  checkAttributesSanity,
  flattenAttributes,
  pythonJsonDumps,
  sanitizeAttributes,
  sanitizeListAttribute,
} from '../src/index.js';

describe('flattenAttributes (upstream flatten_attributes)', () => {
  it('flattens objects and lists; expandLeafLists expands primitive lists too', () => {
    const nested = { a: { b: 1, c: [2, 3] }, d: [{ e: 'x' }], f: [] as unknown[] };
    expect(flattenAttributes(nested)).toEqual({ 'a.b': 1, 'a.c': [2, 3], 'd.0.e': 'x' });
    expect(flattenAttributes(nested, { expandLeafLists: true })).toEqual({
      'a.b': 1,
      'a.c.0': 2,
      'a.c.1': 3,
      'd.0.e': 'x',
    });
  });

  it('expands lists mixing primitive types (int with float counts as mixed, as in Python)', () => {
    const notes: string[] = [];
    expect(
      flattenAttributes({ m: [1, 1.5], s: ['a', true] }, { onMixedList: (k) => notes.push(k) }),
    ).toEqual({ 'm.0': 1, 'm.1': 1.5, 's.0': 'a', 's.1': true });
    expect(notes).toEqual(['m', 's']);
  });

  it('keeps non-plain objects as leaves and never touches prototypes', () => {
    const date = new Date(0);
    const flat = flattenAttributes({
      when: date,
      none: null,
      ['__proto__']: { polluted: true },
    } as Record<string, unknown>);
    expect(flat.when).toBe(date);
    expect(flat.none).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('sanitizeAttributes (upstream sanitize_attributes)', () => {
  it('keeps primitives and homogeneous lists; JSON-encodes the rest like json.dumps(default=str)', () => {
    const warnings: string[] = [];
    expect(
      sanitizeAttributes(
        {
          s: 'x',
          n: 1.5,
          b: true,
          ints: [1, true, 3],
          floats: [1, 2.5, false],
          bools: [true, false],
          empty: [],
          mixed: ['a', 1],
          none: null,
          obj: { a: [1, { b: 'é' }] },
          fn: { f: () => 1 },
          big: 5n,
        },
        (w) => warnings.push(w),
      ),
    ).toEqual({
      s: 'x',
      n: 1.5,
      b: true,
      ints: [1, 1, 3],
      floats: [1, 2.5, 0],
      bools: [true, false],
      empty: [],
      mixed: '["a", 1]',
      none: 'null',
      obj: '{"a": [1, {"b": "\\u00e9"}]}',
      fn: '{"f": "() => 1"}',
      big: 5,
    });
    expect(warnings).toHaveLength(1);
  });

  it('sanitizeListAttribute / checkAttributesSanity reject mixed values', () => {
    expect(() => sanitizeListAttribute(['a', 1], 'k')).toThrow(
      "attribute 'k' must be a list of one primitive type (str, int, float or bool), got a list of int, str",
    );
    expect(() => checkAttributesSanity({ ok: [1, 2], bad: { a: 1 } })).toThrow(
      /attribute 'bad'.*got Object/,
    );
    expect(() => checkAttributesSanity({ list: [1, 'x'] })).toThrow(
      /attribute 'list' must be a list/,
    );
  });
});

describe('pythonJsonDumps', () => {
  it('writes JSON the way Python json.dumps does', () => {
    expect(pythonJsonDumps({ a: 1, b: [true, null, 'x\n"y"'], c: {} })).toBe(
      '{"a": 1, "b": [true, null, "x\\n\\"y\\""], "c": {}}',
    );
    expect(pythonJsonDumps('日本 😀')).toBe('"\\u65e5\\u672c \\ud83d\\ude00"');
    expect(pythonJsonDumps(undefined)).toBe('null');
    expect(pythonJsonDumps([undefined, () => 1])).toBe('[null, null]');
  });
});
