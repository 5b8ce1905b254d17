import { describe, expect, it } from 'vitest';
import {
  coercePythonFloat,
  findFinalReward,
  findFinalTripletReward,
  findRewardSpans,
  getRewardsFromSpan,
  getRewardValue,
  isRewardSpan,
  parsePythonJson,
  pythonTruthy,
  ValidationError,
} from '../src/index.js';

const span = (attributes: Record<string, unknown>, name = 'agentlightning.annotation') => ({
  name,
  attributes,
});

describe('Python value helpers', () => {
  it('parsePythonJson accepts NaN / Infinity outside strings only', () => {
    expect(parsePythonJson('[NaN, -Infinity, Infinity, "NaN"]')).toEqual([
      NaN,
      -Infinity,
      Infinity,
      'NaN',
    ]);
    expect(parsePythonJson('{"a": "-Infinity \\" NaN"}')).toEqual({ a: '-Infinity " NaN' });
    expect(() => parsePythonJson('[nan]')).toThrow(SyntaxError);
    expect(() => parsePythonJson('NaNx')).toThrow(SyntaxError);
  });

  it('coercePythonFloat follows Pydantic’s lax float', () => {
    expect([1, true, '0.5', ' 1_000 ', '1e3', '-inf', '.5'].map(coercePythonFloat)).toEqual([
      1,
      1,
      0.5,
      1000,
      1000,
      -Infinity,
      0.5,
    ]);
    expect(coercePythonFloat('nan')).toBeNaN();
    expect(['', 'abc', '0x10', '1__0', null, [1]].map(coercePythonFloat)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('pythonTruthy', () => {
    expect([null, 0, '', false, [], {}].map(pythonTruthy)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect([1, 'x', true, [0], { a: 0 }, NaN].map(pythonTruthy)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
  });
});

describe('reward readers', () => {
  it('reads v0.3 reward lists (primary first) with lax float values', () => {
    const s = span({
      'agentlightning.reward.0.name': 'task',
      'agentlightning.reward.0.value': '0.5',
      'agentlightning.reward.1.name': 'style',
      'agentlightning.reward.1.value': true,
    });
    expect(getRewardsFromSpan(s)).toEqual([
      { name: 'task', value: 0.5 },
      { name: 'style', value: 1 },
    ]);
    expect(getRewardValue(s)).toBe(0.5);
    expect(() =>
      getRewardValue(
        span({ 'agentlightning.reward.0.name': 'x', 'agentlightning.reward.0.value': 'lots' }),
      ),
    ).toThrow(ValidationError);
    expect(() => getRewardValue(span({ 'agentlightning.rewarded': 1 }))).toThrow(ValidationError);
  });

  it('reads AgentOps outputs, stopping at a null value, and throws on non-object JSON', () => {
    expect(
      getRewardValue(span({ 'agentops.entity.output': '{"type": "reward", "value": 2}' }, 'x')),
    ).toBe(2);
    expect(
      getRewardValue(span({ 'agentops.task.output': '{"type": "reward", "value": NaN}' }, 'x')),
    ).toBeNaN();
    expect(
      getRewardValue(
        span(
          {
            'agentops.task.output': '{"type": "reward", "value": null}',
            'agentops.entity.output': '{"type": "reward", "value": 1}',
          },
          'x',
        ),
      ),
    ).toBeNull();
    expect(getRewardValue(span({ 'agentops.task.output': 'plain' }, 'x'))).toBeNull();
    expect(() => getRewardValue(span({ 'agentops.task.output': '[1]' }, 'x'))).toThrow(
      ValidationError,
    );
  });

  it('reads the v0.2 reward attribute on annotation spans only', () => {
    expect(getRewardValue(span({ reward: 0 }))).toBe(0);
    expect(getRewardValue(span({ reward: 1 }, 'agentlightning.reward'))).toBeNull();
  });

  it('finds reward spans and the final reward', () => {
    const spans = [span({ reward: 1 }), span({}, 'x'), span({ reward: 2 }), span({ other: 1 })];
    expect(findRewardSpans(spans)).toEqual([spans[0], spans[2]]);
    expect(isRewardSpan(spans[1]!)).toBe(false);
    expect(findFinalReward(spans)).toBe(2);
    expect(findFinalReward([])).toBeNull();
  });
});

describe('findFinalTripletReward', () => {
  const triplet = (reward: number | null) => ({ prompt: {}, response: {}, reward, metadata: {} });
  it('is the last non-null triplet reward, searching backwards (upstream VERL daemon)', () => {
    expect(findFinalTripletReward([triplet(0.2), triplet(0.9), triplet(null)])).toBe(0.9);
    expect(findFinalTripletReward([triplet(0), triplet(null)])).toBe(0);
    expect(findFinalTripletReward([triplet(null)])).toBeNull();
    expect(findFinalTripletReward([])).toBeNull();
  });
});
