import { describe, expect, it } from 'vitest';
import { AttributeBag, asIntArray, toJson } from '../src/index.js';

describe('AttributeBag', () => {
  it('keeps attribute values and drops null, undefined, non-finite numbers and functions', () => {
    const bag = new AttributeBag();
    bag.set('s', 'text');
    bag.set('b', false);
    bag.set('n', 0);
    bag.set('nan', Number.NaN);
    bag.set('inf', Number.POSITIVE_INFINITY);
    bag.set('null', null);
    bag.set('undef', undefined);
    bag.set('fn', () => 1);
    expect(bag.attributes).toEqual({ s: 'text', b: false, n: 0 });
  });

  it('copies homogeneous primitive arrays and writes anything else as JSON', () => {
    const ids = [1, 2, 3];
    const bag = new AttributeBag();
    bag.set('ids', ids);
    bag.set('empty', []);
    bag.set('mixed', ['a', 1]);
    bag.set('object', { a: [1] });
    bag.set('nested', [['a']]);
    ids.push(4);
    expect(bag.attributes).toEqual({
      ids: [1, 2, 3],
      empty: [],
      mixed: '["a",1]',
      object: '{"a":[1]}',
      nested: '[["a"]]',
    });
  });

  it('never throws on values JSON cannot encode', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const bag = new AttributeBag();
    bag.set('cyclic', cyclic);
    bag.setJson('big', 10n);
    expect(bag.attributes).toEqual({ cyclic: '[object Object]', big: '10' });
    expect(toJson(undefined)).toBe('undefined');
  });

  it('setJson encodes strings too and skips null and undefined', () => {
    const bag = new AttributeBag();
    bag.setJson('s', 'a');
    bag.setJson('n', null);
    bag.setJson('u', undefined);
    bag.setJson('o', { x: 1 });
    expect(bag.attributes).toEqual({ s: '"a"', o: '{"x":1}' });
  });

  it('uses the encoding given: its JSON and finite-only number arrays', () => {
    const bag = new AttributeBag({
      toJson: (value) => (typeof value === 'string' ? value : `json:${JSON.stringify(value)}`),
      finiteNumberArrays: true,
    });
    bag.setJson('s', 'kept');
    bag.set('o', { a: 1 });
    bag.set('finite', [1, 2]);
    bag.set('nan', [1, Number.NaN]);
    expect(bag.attributes).toEqual({
      s: 'kept',
      o: 'json:{"a":1}',
      finite: [1, 2],
      nan: 'json:[1,null]',
    });
    const loose = new AttributeBag();
    loose.set('nan', [1, Number.NaN]);
    expect(loose.attributes.nan).toEqual([1, Number.NaN]);
  });

  it('merge adds converted attributes and keeps the position of keys already set', () => {
    const bag = new AttributeBag();
    bag.set('a', 1);
    bag.set('b', 2);
    bag.merge({ a: 3, c: 'x' });
    expect(Object.entries(bag.attributes)).toEqual([
      ['a', 3],
      ['b', 2],
      ['c', 'x'],
    ]);
  });

  it('asIntArray copies integer arrays only', () => {
    const ids = [1, 2];
    const copy = asIntArray(ids);
    expect(copy).toEqual([1, 2]);
    expect(copy).not.toBe(ids);
    expect(asIntArray([])).toEqual([]);
    expect(asIntArray([1.5])).toBeUndefined();
    expect(asIntArray('1')).toBeUndefined();
  });
});
