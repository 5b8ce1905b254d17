import { ValidationError } from '@arclight/core';
import { InMemoryLightningStore } from '@arclight/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clearActiveTracer,
  emitAnnotation,
  emitException,
  emitMessage,
  emitObject,
  emitReward,
  LightningTracer,
  makeLinkAttributes,
  makeTagAttributes,
  operation,
} from '../src/index.js';
import { newAttempt } from './support/stores.js';

const local = { propagate: false } as const;

class QuotaError extends Error {}

describe('emitReward', () => {
  it('encodes a scalar reward as the "primary" dimension', () => {
    const span = emitReward(0.5, local);
    expect(span.name).toBe('agentlightning.annotation');
    expect(span.status).toEqual({ status_code: 'OK', description: null });
    expect(span.attributes).toEqual({
      'agentlightning.reward.0.name': 'primary',
      'agentlightning.reward.0.value': 0.5,
    });
    expect(span.start_time).toBe(span.end_time);
  });

  it('puts the primary key first, then the other dimensions in order, plus extra attributes', () => {
    const span = emitReward(
      { efficiency: 0.8, task_completion: 1, polite: true },
      {
        ...local,
        primaryKey: 'task_completion',
        attributes: {
          ...makeLinkAttributes({ 'gen_ai.response.id': 'resp-1' }),
          ...makeTagAttributes(['fast']),
          note: { source: 'judge' },
        },
      },
    );
    expect(span.attributes).toEqual({
      'agentlightning.reward.0.name': 'task_completion',
      'agentlightning.reward.0.value': 1,
      'agentlightning.reward.1.name': 'efficiency',
      'agentlightning.reward.1.value': 0.8,
      'agentlightning.reward.2.name': 'polite',
      'agentlightning.reward.2.value': 1,
      'agentlightning.link.0.key_match': 'gen_ai.response.id',
      'agentlightning.link.0.value_match': 'resp-1',
      'agentlightning.tag.0': 'fast',
      'note.source': 'judge',
    });
  });

  it('rejects bad rewards with clear errors', () => {
    expect(() => emitReward(Number.NaN, local)).toThrow(ValidationError);
    expect(() => emitReward(Number.NaN, local)).toThrow('reward must be a finite number, got NaN');
    expect(() => emitReward(Number.POSITIVE_INFINITY, local)).toThrow(
      /finite number, got Infinity/,
    );
    expect(() => emitReward('1' as unknown as number, local)).toThrow(
      'reward must be a number or a record of numbers, got "1"',
    );
    expect(() => emitReward(null as unknown as number, local)).toThrow(/got null/);
    expect(() => emitReward({ a: 1, b: 2 }, local)).toThrow(
      'primaryKey is required when reward is a record (keys: a, b)',
    );
    expect(() => emitReward({ a: 1 }, { ...local, primaryKey: 'z' })).toThrow(
      "primaryKey 'z' is not a key of reward (keys: a)",
    );
    expect(() =>
      emitReward({ a: 'x' as unknown as number }, { ...local, primaryKey: 'a' }),
    ).toThrow(`reward['a'] must be a number, got "x"`);
    expect(() => emitReward({ a: Number.NaN }, { ...local, primaryKey: 'a' })).toThrow(
      `reward['a'] must be a finite number`,
    );
  });
});

describe('emitAnnotation', () => {
  it('flattens nested objects; lists of one primitive type stay arrays, others are expanded', () => {
    const span = emitAnnotation(
      { a: { b: 1, c: [2, 3] }, mixed: [1, 'x'], objects: [{ k: 'v' }], flag: false },
      local,
    );
    expect(span.name).toBe('agentlightning.annotation');
    expect(span.attributes).toEqual({
      'a.b': 1,
      'a.c': [2, 3],
      'mixed.0': 1,
      'mixed.1': 'x',
      'objects.0.k': 'v',
      flag: false,
    });
  });

  it('rejects values that are not attribute values after flattening', () => {
    expect(() => emitAnnotation({ a: null }, local)).toThrow(
      "attribute 'a' must be a string, number, boolean or a list of these, got null",
    );
    expect(() => emitAnnotation({ when: new Date(0) }, local)).toThrow(
      /attribute 'when'.*got Date/,
    );
    expect(() => emitAnnotation([] as unknown as Record<string, unknown>, local)).toThrow(
      'annotation must be a plain object',
    );
  });
});

describe('emitMessage', () => {
  it('writes the body and flattened, sanitised extras; status stays as upstream leaves it', () => {
    const span = emitMessage(
      'hello',
      { meta: { n: 1, tags: ['a', 'b'] }, none: null, ok: true },
      local,
    );
    expect(span.name).toBe('agentlightning.message');
    expect(span.attributes).toEqual({
      'agentlightning.message.body': 'hello',
      'meta.n': 1,
      'meta.tags': ['a', 'b'],
      none: 'null',
      ok: true,
    });
  });

  it('rejects a non-string message', () => {
    expect(() => emitMessage(42 as unknown as string, undefined, local)).toThrow(
      'message must be a string, got 42',
    );
  });
});

describe('emitException', () => {
  it('writes the OpenTelemetry exception attributes with status OK', () => {
    const error = new QuotaError('quota exceeded');
    const span = emitException(error, { attempt: 2 }, local);
    expect(span.name).toBe('agentlightning.exception');
    expect(span.status).toEqual({ status_code: 'OK', description: null });
    expect(span.attributes).toEqual({
      'exception.type': 'QuotaError',
      'exception.message': 'quota exceeded',
      'exception.escaped': true,
      'exception.stacktrace': error.stack,
      attempt: 2,
    });
    expect(emitException(new TypeError('bad'), null, local).attributes['exception.type']).toBe(
      'TypeError',
    );
  });

  it('rejects anything but an Error', () => {
    expect(() => emitException('oops' as unknown as Error, undefined, local)).toThrow(
      'error must be an Error instance, got "oops"',
    );
  });
});

describe('tags and links', () => {
  it('makeTagAttributes / makeLinkAttributes', () => {
    expect(makeTagAttributes(['gen_ai.model:gpt-4', 'reward.extrinsic'])).toEqual({
      'agentlightning.tag.0': 'gen_ai.model:gpt-4',
      'agentlightning.tag.1': 'reward.extrinsic',
    });
    expect(makeLinkAttributes({ 'gen_ai.response.id': 'r-1', span_id: 'abcd' })).toEqual({
      'agentlightning.link.0.key_match': 'gen_ai.response.id',
      'agentlightning.link.0.value_match': 'r-1',
      'agentlightning.link.1.key_match': 'span_id',
      'agentlightning.link.1.value_match': 'abcd',
    });
    expect(() => makeLinkAttributes({ id: 3 as unknown as string })).toThrow(
      "link value for key 'id' must be a string, got 3",
    );
  });
});

describe('emitters through a tracer', () => {
  let store: InMemoryLightningStore;
  let tracer: LightningTracer;
  beforeEach(() => {
    store = new InMemoryLightningStore();
    tracer = new LightningTracer({ store });
  });
  afterEach(async () => {
    await tracer.shutdown();
  });

  it('store exactly the attributes the emitters return', async () => {
    const ids = await newAttempt(store);
    const returned: Record<string, unknown>[] = [];
    const fetchWeather = operation(async (city: string) => ({ city, temp: [20, 21] }), {
      name: 'fetch_weather',
      tool: { kind: 'http' },
    });
    await tracer.traceContext(ids, async () => {
      returned.push(emitReward({ a: 1, b: 0.5 }, { primaryKey: 'b' }).attributes);
      returned.push(emitMessage('hi', { k: 'v' }).attributes);
      returned.push(emitObject({ x: [1, 2] }).attributes);
      returned.push(emitException(new Error('boom')).attributes);
      await fetchWeather('Paris');
      await expect(
        operation(async () => {
          throw new Error('tool failed');
        })(),
      ).rejects.toThrow('tool failed');
    });
    const spans = (await store.querySpans(ids.rolloutId)).items;
    expect(spans.map((s) => s.name)).toEqual([
      'agentlightning.annotation',
      'agentlightning.message',
      'agentlightning.object',
      'agentlightning.exception',
      'agentlightning.operation',
      'agentlightning.operation',
    ]);
    spans.slice(0, 4).forEach((span, i) => {
      expect(span.attributes).toEqual(returned[i]);
    });
    expect(spans[0]!.status.status_code).toBe('OK');
    expect(spans[1]!.status.status_code).toBe('UNSET');
    expect(spans[4]!.attributes).toEqual({
      'agentlightning.operation.name': 'fetch_weather',
      'tool.kind': 'http',
      'agentlightning.operation.input.args.0': 'Paris',
      'agentlightning.operation.output.city': 'Paris',
      'agentlightning.operation.output.temp': [20, 21],
    });
    expect(spans[5]!.status).toEqual({ status_code: 'ERROR', description: 'tool failed' });
    expect(spans[5]!.events.map((e) => e.name)).toEqual(['exception']);
    expect(spans[5]!.events[0]!.attributes).toMatchObject({
      'exception.type': 'Error',
      'exception.message': 'tool failed',
    });
  });

  it('need an active tracer unless propagate is false', async () => {
    await tracer.shutdown();
    clearActiveTracer();
    expect(() => emitReward(1)).toThrow(/No active LightningTracer: cannot emit/);
    expect(() => operation.scope({}, () => 1)).toThrow(/No active LightningTracer/);
    expect(emitReward(1, { propagate: false }).name).toBe('agentlightning.annotation');
  });
});
