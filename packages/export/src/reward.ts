import { findFinalTripletReward, type Triplet } from '@arclight/core';

/**
 * LightningRL's implemented credit assignment ("identical assignment", agent-lightning v0.3
 * `docs/algorithm-zoo/verl.md`): the rollout's reward is the last non-null triplet reward (core's
 * `findFinalTripletReward`, searching backwards as the VERL daemon does) and every call of the rollout is
 * trained with it. No discounting. `found: false` (value 0) when no triplet carries a reward.
 */
export function finalReward(triplets: readonly Triplet[]): { value: number; found: boolean } {
  const reward = findFinalTripletReward(triplets);
  return reward === null ? { value: 0, found: false } : { value: reward, found: true };
}
