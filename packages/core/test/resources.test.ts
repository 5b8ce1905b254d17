import { describe, expect, it } from 'vitest';
import { LLM, PromptTemplate, ProxyLLM, ValidationError } from '../src/index.js';

describe('LLM.getBaseUrl', () => {
  it('returns the endpoint regardless of ids', () => {
    const llm = new LLM({ endpoint: 'http://h/v1/', model: 'm' });
    expect(llm.getBaseUrl()).toBe('http://h/v1/');
    expect(llm.getBaseUrl('ro-1', 'at-1')).toBe('http://h/v1/');
  });
});

describe('ProxyLLM.getBaseUrl', () => {
  const proxy = (endpoint: string) => new ProxyLLM({ endpoint, model: 'm' });

  it('returns the raw endpoint when both ids are absent', () => {
    expect(proxy('http://h/v1/').getBaseUrl()).toBe('http://h/v1/');
    expect(proxy('http://h/v1/').getBaseUrl(null, null)).toBe('http://h/v1/');
  });

  it('appends the rollout route to an endpoint without /v1', () => {
    expect(proxy('http://h:11434').getBaseUrl('ro-1', 'at-2')).toBe(
      'http://h:11434/rollout/ro-1/attempt/at-2',
    );
  });

  it('strips one trailing slash', () => {
    expect(proxy('http://h:11434/').getBaseUrl('ro-1', 'at-2')).toBe(
      'http://h:11434/rollout/ro-1/attempt/at-2',
    );
  });

  it('moves a trailing /v1 after the rollout route', () => {
    expect(proxy('http://h/v1').getBaseUrl('ro-1', 'at-2')).toBe(
      'http://h/rollout/ro-1/attempt/at-2/v1',
    );
    expect(proxy('http://h/v1/').getBaseUrl('ro-1', 'at-2')).toBe(
      'http://h/rollout/ro-1/attempt/at-2/v1',
    );
    expect(proxy('http://h/api/v1x').getBaseUrl('r', 'a')).toBe(
      'http://h/api/v1x/rollout/r/attempt/a',
    );
  });

  it('throws when exactly one id is given', () => {
    expect(() => proxy('http://h').getBaseUrl('ro-1', null)).toThrow(ValidationError);
    expect(() => proxy('http://h').getBaseUrl(undefined, 'at-1')).toThrow(/attemptId=at-1/);
  });

  it('bakes the attempted rollout into a plain LLM', () => {
    const baked = new ProxyLLM({
      endpoint: 'http://h/v1',
      model: 'm',
      api_key: 'k',
      sampling_parameters: { temperature: 0 },
    }).withAttemptedRollout({ rollout_id: 'ro-1', attempt: { attempt_id: 'at-1' } });
    expect(baked).toBeInstanceOf(LLM);
    expect(baked).not.toBeInstanceOf(ProxyLLM);
    expect(JSON.parse(JSON.stringify(baked))).toEqual({
      resource_type: 'llm',
      endpoint: 'http://h/rollout/ro-1/attempt/at-1/v1',
      model: 'm',
      api_key: 'k',
      sampling_parameters: { temperature: 0 },
    });
  });
});

describe('PromptTemplate.format', () => {
  const format = (template: string, values: Record<string, unknown>) =>
    new PromptTemplate({ template, engine: 'f-string' }).format(values);

  it('substitutes named fields', () => {
    expect(format('Hello {name}, you are {age}.', { name: 'Ada', age: 36 })).toBe(
      'Hello Ada, you are 36.',
    );
    expect(format('{a}{a}', { a: 'x' })).toBe('xx');
  });

  it('supports attribute and index access', () => {
    const values = { user: { name: 'Ada', tags: ['x', 'y'] }, row: { 'k-1': 5 } };
    expect(format('{user.name} {user.tags[1]} {row[k-1]}', values)).toBe('Ada y 5');
    expect(() => format('{user.email}', values)).toThrow('"user" has no attribute "email"');
    expect(() => format('{user.tags[5]}', values)).toThrow('"user.tags" has no key "5"');
  });

  it('unescapes doubled braces', () => {
    expect(format('{{literal}} {x} }}{{', { x: 1 })).toBe('{literal} 1 }{');
  });

  it('reports missing keys by name', () => {
    expect(() => format('Hi {name} {other}', { name: 'x' })).toThrow(ValidationError);
    expect(() => format('Hi {name} {other}', { name: 'x' })).toThrow(
      'missing value for field "other"',
    );
  });

  it('rejects positional fields and unbalanced braces', () => {
    expect(() => format('{}', {})).toThrow('positional field');
    expect(() => format('{0}', {})).toThrow('positional field');
    expect(() => format('a } b', {})).toThrow("single '}'");
    expect(() => format('a { b', {})).toThrow("single '{'");
  });

  it('applies conversions and format specs like Python', () => {
    expect(format('{s!r} {s!s} {q!r} {u!a}', { s: 'hi', q: "it's", u: 'é' })).toBe(
      `'hi' hi "it's" '\\xe9'`,
    );
    expect(
      format('[{x:.2f}] [{n:,}] [{n:>10}] [{s:<5}] [{s:^6}] [{s:*>4}]', {
        x: 1.23456,
        n: 1234567,
        s: 'ab',
      }),
    ).toBe('[1.23] [1,234,567] [   1234567] [ab   ] [  ab  ] [**ab]');
    expect(
      format('{a:+d} {b:05d} {h:#x} {h:08b} {p:.1%} {e:.2e} {g:g} {g2:g}', {
        a: 5,
        b: -42,
        h: 255,
        p: 0.256,
        e: 12345.678,
        g: 0.00001,
        g2: 1234.5,
      }),
    ).toBe('+5 -0042 0xff 11111111 25.6% 1.23e+04 1e-05 1234.5');
    expect(() => format('{x:d}', { x: 1.5 })).toThrow('needs an integer');
    expect(() => format('{s:d}', { s: 'a' })).toThrow('cannot format a string');
  });

  it('only formats the f-string engine', () => {
    expect(() =>
      new PromptTemplate({ template: '{{ x }}', engine: 'jinja' }).format({ x: 1 }),
    ).toThrow('only the "f-string" engine');
  });
});
