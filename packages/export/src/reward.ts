import type { Triplet } from '@arclight/core';

/**
 * LightningRL's implemented credit assignment ("identical assignment", agent-lightning v0.3
 * `docs/algorithm-zoo/verl.md`): the rollout's reward is the last non-null triplet reward (searching backwards,
 * as the VERL daemon does) and every call of the rollout is trained with it. No discounting.
 */
export function finalReward(triplets: readonly Triplet[]): { value: number; found: boolean } {
  for (let i = triplets.length - 1; i >= 0; i--) {
    const reward = triplets[i]!.reward;
    if (typeof reward === 'number' && Number.isFinite(reward))
      return { value: reward, found: true };
  }
  return { value: 0, found: false };
}
