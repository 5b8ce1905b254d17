import { describe, expect, it } from 'vitest';
import {
  filterAndUnflattenAttributes,
  filterAttributes,
  unflattenAttributes,
  ValidationError,
} from '../src/index.js';

// Upstream `utils/otel.py` (v0.3.0) semantics. These readers were once implemented twice (here and in
// @arclight/otel) with different answers for the cases marked "upstream:" below; core's is the one.

describe('unflattenAttributes', () => {
  it('rebuilds nesting; digit-keyed objects 0..n-1 become lists', () => {
    expect(
      unflattenAttributes({ 'a.b': 1, 'a.c.0': 2, 'a.c.1': 3, 'd.1': 'x', 'd.2': 'y' }),
    ).toEqual({
      a: { b: 1, c: [2, 3] },
      d: { 1: 'x', 2: 'y' },
    });
    expect(unflattenAttributes({ '0': 'a', '1': 'b' })).toEqual(['a', 'b']);
    expect(unflattenAttributes({ a: 1, 'a.b': 2 })).toEqual({ a: { b: 2 } });
    expect(unflattenAttributes({ 'a.b': 2, a: 1 })).toEqual({ a: 1 });
    expect(unflattenAttributes({ '__proto__.x': 1 })).toEqual(
      JSON.parse('{"__proto__": {"x": 1}}'),
    );
    expect(() => unflattenAttributes({ '0': 'a', '01': 'b' })).toThrow(ValidationError);
  });

  it('filters by prefix and rejects a key equal to the prefix', () => {
    expect(filterAndUnflattenAttributes({ 'p.x': 1, px: 2, q: 3 }, 'p')).toEqual({ x: 1 });
    expect(filterAndUnflattenAttributes({ q: 3 }, 'p')).toEqual({});
    expect(() => filterAndUnflattenAttributes({ p: 1 }, 'p')).toThrow(/equals the prefix/);
  });
});

describe('unflattenAttributes / filterAndUnflattenAttributes (from @arclight/otel)', () => {
  it('rebuilds lists only from consecutive 0..n-1 keys', () => {
    expect(unflattenAttributes({ 'a.b': 1, 'a.c.0': 2, 'a.c.1': 3 })).toEqual({
      a: { b: 1, c: [2, 3] },
    });
    expect(unflattenAttributes({ 'x.0': 'a', 'x.2': 'b' })).toEqual({ x: { 0: 'a', 2: 'b' } });
    expect(unflattenAttributes({ '0': 'a', '1': 'b' })).toEqual(['a', 'b']);
  });

  it('filters by prefix and refuses a key equal to the prefix', () => {
    expect(
      filterAndUnflattenAttributes({ 'p.0.k': 1, 'p.1.k': 2, 'px.0': 9, other: 3 }, 'p'),
    ).toEqual([{ k: 1 }, { k: 2 }]);
    expect(() => filterAndUnflattenAttributes({ p: 1 }, 'p')).toThrow(/equals the prefix/);
  });
});

describe('where two implementations disagreed', () => {
  it("upstream: digit keys that are not the indices 0..n-1 ('01') fail as upstream's KeyError does", () => {
    // Upstream sorts int('0'), int('01') = [0, 1] == range(2), then looks up node['1']: KeyError.
    expect(() => filterAndUnflattenAttributes({ 'p.0': 'a', 'p.01': 'b' }, 'p')).toThrow(
      ValidationError,
    );
    expect(() => filterAndUnflattenAttributes({ 'p.0': 'a', 'p.01': 'b' }, 'p')).toThrow(
      /not a valid list index/,
    );
    // Not indices 0..n-1 at all: stays an object, as upstream.
    expect(filterAndUnflattenAttributes({ 'p.1': 'a', 'p.02': 'b' }, 'p')).toEqual({
      1: 'a',
      '02': 'b',
    });
  });

  it('upstream: a __proto__ key is an ordinary key (a Python dict keeps it), never a prototype', () => {
    const attributes = JSON.parse('{"__proto__": 1, "__proto__.x": 2, "other": 3}');
    const filtered = filterAttributes(attributes, '__proto__');
    expect(Object.keys(filtered)).toEqual(['__proto__', '__proto__.x']);
    expect(Object.getPrototypeOf(filtered)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(filtered, '__proto__')?.value).toBe(1);
    const nested = filterAndUnflattenAttributes(JSON.parse('{"p.__proto__.polluted": true}'), 'p');
    expect(Object.keys(nested)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
