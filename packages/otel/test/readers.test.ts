import {
  createSpan,
  extractLinksFromAttributes,
  extractTagsFromAttributes,
  findFinalReward,
  findRewardSpans,
  getMessageValue,
  getObjectValue,
  getRewardsFromSpan,
  getRewardValue,
  isRewardSpan,
  queryLinkedSpans,
  type Span,
  ValidationError,
} from '@arclight/core';
import { describe, expect, it } from 'vitest';
import {
  emitMessage,
  emitObject,
  emitReward,
  makeLinkAttributes,
  makeTagAttributes,
} from '../src/index.js';

const local = { propagate: false } as const;

/** An Arclight span from what an emitter returned. */
const asSpan = (core: { name: string; attributes: Span['attributes'] }): Span =>
  createSpan({ name: core.name, attributes: core.attributes });

describe('reward readers', () => {
  const scalar = asSpan(emitReward(0.25, local));
  const multi = asSpan(
    emitReward({ speed: 0.1, accuracy: 0.9 }, { ...local, primaryKey: 'accuracy' }),
  );
  const message = asSpan(emitMessage('not a reward', undefined, local));

  it('read the v0.3 reward list', () => {
    expect(getRewardsFromSpan(scalar)).toEqual([{ name: 'primary', value: 0.25 }]);
    expect(getRewardsFromSpan(multi)).toEqual([
      { name: 'accuracy', value: 0.9 },
      { name: 'speed', value: 0.1 },
    ]);
    expect(getRewardValue(multi)).toBe(0.9);
    expect(getRewardsFromSpan(message)).toEqual([]);
    expect(getRewardValue(message)).toBeNull();
  });

  it('read the AgentOps and v0.2 encodings', () => {
    const agentops = createSpan({
      name: 'reward_fn',
      attributes: { 'agentops.task.output': '{"type": "reward", "value": 0.5}' },
    });
    const entity = createSpan({
      name: 'x',
      attributes: { 'agentops.entity.output': '{"type": "other", "value": 1}' },
    });
    const legacy = createSpan({ name: 'agentlightning.annotation', attributes: { reward: 0.7 } });
    // Upstream only reads the v0.2 attribute on spans named agentlightning.annotation.
    const legacyOtherName = createSpan({
      name: 'agentlightning.reward',
      attributes: { reward: 0.7 },
    });
    expect(getRewardValue(agentops)).toBe(0.5);
    expect(getRewardValue(entity)).toBeNull();
    expect(getRewardValue(legacy)).toBe(0.7);
    expect(getRewardValue(legacyOtherName)).toBeNull();
  });

  it('find reward spans and the final reward in list order', () => {
    const later = asSpan(emitReward(1, local));
    const spans = [scalar, message, multi, later, message];
    expect(findRewardSpans(spans)).toEqual([scalar, multi, later]);
    expect(isRewardSpan(message)).toBe(false);
    expect(findFinalReward(spans)).toBe(1);
    expect(findFinalReward([message])).toBeNull();
    expect(findFinalReward([])).toBeNull();
  });

  it('reject malformed reward attributes', () => {
    const broken = createSpan({
      name: 'agentlightning.annotation',
      attributes: {
        'agentlightning.reward.0.name': 'primary',
        'agentlightning.reward.0.value': 'high',
      },
    });
    expect(() => getRewardsFromSpan(broken)).toThrow(ValidationError);
    expect(() => getRewardsFromSpan(broken)).toThrow(
      /agentlightning\.reward\.0 needs a string 'name'/,
    );
    const notList = createSpan({
      name: 'x',
      attributes: { 'agentlightning.reward.best.value': 1 },
    });
    expect(() => getRewardValue(notList)).toThrow(/do not form a list/);
  });
});

describe('message and object readers', () => {
  it('getMessageValue', () => {
    expect(getMessageValue(asSpan(emitMessage('hello', undefined, local)))).toBe('hello');
    expect(getMessageValue(createSpan({ name: 'x', attributes: {} }))).toBeNull();
    expect(() =>
      getMessageValue(createSpan({ name: 'x', attributes: { 'agentlightning.message.body': 1 } })),
    ).toThrow(/must be a string/);
  });

  it('getObjectValue inverts emitObject', () => {
    const values: unknown[] = [
      'text',
      42,
      -7,
      1.5,
      true,
      false,
      null,
      [1, 'a', { b: null }],
      { nested: { list: [1, 2] }, name: 'café' },
    ];
    for (const value of values) {
      expect(getObjectValue(asSpan(emitObject(value, undefined, local)))).toEqual(value);
    }
    expect(getObjectValue(asSpan(emitObject(10n ** 20n, undefined, local)))).toBe(10n ** 20n);
    expect(getObjectValue(asSpan(emitObject(Number.NaN, undefined, local)))).toBeNaN();
    expect(getObjectValue(asSpan(emitObject(Number.POSITIVE_INFINITY, undefined, local)))).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(
      getObjectValue(asSpan(emitObject(new Uint8Array([1, 2, 255]), undefined, local))),
    ).toEqual(new Uint8Array([1, 2, 255]));
    expect(getObjectValue(createSpan({ name: 'x', attributes: {} }))).toBeNull();
  });

  it('getObjectValue reads what Python writes, and rejects what it cannot read', () => {
    const literal = (type: string, text: string) =>
      createSpan({
        name: 'agentlightning.object',
        attributes: { 'agentlightning.object.type': type, 'agentlightning.object.literal': text },
      });
    expect(getObjectValue(literal('float', 'inf'))).toBe(Number.POSITIVE_INFINITY);
    expect(getObjectValue(literal('bool', 'False'))).toBe(false);
    expect(() => getObjectValue(literal('int', '1.5'))).toThrow(/is not a valid int/);
    expect(() => getObjectValue(literal('complex', '1j'))).toThrow(
      /unsupported agentlightning.object.type 'complex'/,
    );
    const json = createSpan({ name: 'x', attributes: { 'agentlightning.object.json': '{bad' } });
    expect(() => getObjectValue(json)).toThrow(/is not valid JSON/);
  });
});

describe('tags and links readers', () => {
  const target = createSpan({
    name: 'openai.chat.completion',
    attributes: { 'gen_ai.response.id': 'resp-1', 'gen_ai.system': 'openai' },
  });
  const other = createSpan({ name: 'other', attributes: { 'gen_ai.response.id': 'resp-2' } });

  it('queryLinkedSpans matches attributes, trace_id and span_id exactly', () => {
    const reward = asSpan(
      emitReward(1, {
        ...local,
        attributes: makeLinkAttributes({ 'gen_ai.response.id': 'resp-1' }),
      }),
    );
    const links = extractLinksFromAttributes(reward.attributes);
    expect(links).toEqual([{ key_match: 'gen_ai.response.id', value_match: 'resp-1' }]);
    expect(queryLinkedSpans([target, other, reward], links)).toEqual([target]);
    expect(
      queryLinkedSpans([target, other], [{ key_match: 'span_id', value_match: other.span_id }]),
    ).toEqual([other]);
    expect(
      queryLinkedSpans(
        [target, other],
        [
          { key_match: 'trace_id', value_match: target.trace_id },
          { key_match: 'gen_ai.system', value_match: 'openai' },
        ],
      ),
    ).toEqual([target]);
    expect(queryLinkedSpans([target, other], [])).toEqual([target, other]);
  });

  it('extractTagsFromAttributes', () => {
    expect(extractTagsFromAttributes(makeTagAttributes(['a', 'b']))).toEqual(['a', 'b']);
    expect(extractTagsFromAttributes({})).toEqual([]);
  });
});
