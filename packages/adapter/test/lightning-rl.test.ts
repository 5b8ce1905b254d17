import { findFinalTripletReward, type Triplet } from '@arclight/core';
import { describe, expect, it } from 'vitest';
import { lightningRL } from '../src/index.js';

const triplets = (rewards: (number | null)[]): Triplet[] =>
  rewards.map((reward, i) => ({
    prompt: { token_ids: [i] },
    response: { token_ids: [] },
    reward,
    metadata: {},
  }));
const rewardsOf = (ts: Triplet[]) => ts.map((t) => t.reward);

describe('lightningRL', () => {
  it('gives every transition the final reward: the last matched one, as the VERL daemon finds it', () => {
    const input = triplets([0.2, null, 0.9, null]);
    expect(findFinalTripletReward(input)).toBe(0.9);
    expect(rewardsOf(lightningRL(input))).toEqual([0.9, 0.9, 0.9, 0.9]);
    expect(rewardsOf(input)).toEqual([0.2, null, 0.9, null]); // input unchanged
    expect(lightningRL(input)[1]!.prompt).toBe(input[1]!.prompt);
  });

  it('uses an explicit final reward, and fillna (default 0) when there is none', () => {
    expect(rewardsOf(lightningRL(triplets([0.2, null]), { finalReward: 1 }))).toEqual([1, 1]);
    expect(rewardsOf(lightningRL(triplets([null, null])))).toEqual([0, 0]);
    expect(rewardsOf(lightningRL(triplets([0.5]), { finalReward: null, fillna: -1 }))).toEqual([
      -1,
    ]);
    expect(lightningRL([])).toEqual([]);
  });

  it('discounts earlier transitions with gamma: final · γ^(T-1-t)', () => {
    expect(rewardsOf(lightningRL(triplets([null, null, 1]), { gamma: 0.5 }))).toEqual([
      0.25, 0.5, 1,
    ]);
    expect(rewardsOf(lightningRL(triplets([null, 2]), { gamma: 0 }))).toEqual([0, 2]);
  });

  it('keeps per-call rewards on request and fills the rest', () => {
    const out = lightningRL(triplets([0.3, null, null, 1]), { perCallRewards: true, gamma: 0.5 });
    expect(rewardsOf(out)).toEqual([0.3, 0.25, 0.5, 1]);
  });

  it('validates gamma and fillna', () => {
    expect(() => lightningRL(triplets([1]), { gamma: 1.5 })).toThrow(/gamma/);
    expect(() => lightningRL(triplets([1]), { gamma: Number.NaN })).toThrow(/gamma/);
    expect(() => lightningRL(triplets([1]), { fillna: Number.POSITIVE_INFINITY })).toThrow(
      /fillna/,
    );
  });
});
