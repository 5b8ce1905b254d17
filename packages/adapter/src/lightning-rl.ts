import { findFinalTripletReward, type Triplet, ValidationError } from '@arclight/core';

/** Options of {@link lightningRL}. */
export interface LightningRLOptions {
  /**
   * The rollout's final reward. Omitted: the last non-null triplet reward (searching backwards), as
   * upstream's VERL daemon derives it (`_validate_data_v1`); to use the last reward *span* instead, pass
   * `findFinalReward(spans)`. When it is (or comes out) `null`, `fillna` is used.
   */
  finalReward?: number | null;
  /** Reward of rollouts without one (upstream `reward_fillna_value`). Default `0`. */
  fillna?: number;
  /** Discount: transition `t` of `T` gets `final · γ^(T-1-t)`, so the last call gets `final`. Default `1`. */
  gamma?: number;
  /** Keep the rewards matched to calls; only calls without one get the (discounted) final reward. */
  perCallRewards?: boolean;
}

/**
 * LightningRL credit assignment (Agent Lightning, arXiv 2508.03680; upstream v0.3 VERL integration): every
 * transition of a rollout is trained as an independent single-turn sample carrying the rollout's final
 * reward ("identical assignment"). `gamma < 1` discounts earlier calls geometrically; `perCallRewards`
 * keeps the rewards the agent emitted for individual calls.
 *
 * Returns new triplets (prompt, response and metadata are shared with the input); the input is not changed.
 */
export function lightningRL(
  triplets: readonly Triplet[],
  options: LightningRLOptions = {},
): Triplet[] {
  const gamma = options.gamma ?? 1;
  if (!(Number.isFinite(gamma) && gamma >= 0 && gamma <= 1)) {
    throw new ValidationError(`gamma: expected a number in [0, 1], got ${String(options.gamma)}`);
  }
  const fillna = options.fillna ?? 0;
  if (!Number.isFinite(fillna)) {
    throw new ValidationError(`fillna: expected a finite number, got ${String(options.fillna)}`);
  }
  const final =
    (options.finalReward === undefined ? findFinalTripletReward(triplets) : options.finalReward) ??
    fillna;
  const last = triplets.length - 1;
  return triplets.map((triplet, t) => {
    const assigned = gamma === 1 ? final : final * gamma ** (last - t);
    const reward = options.perCallRewards && triplet.reward !== null ? triplet.reward : assigned;
    return { ...triplet, reward };
  });
}
