import {
  describeValue,
  isPlainRecord,
  LightningSpanAttributes,
  type RewardModel,
  type SpanCoreFields,
  ValidationError,
} from '@arclight/core';
import { emitAnnotation } from './annotation.js';
import type { EmitOptions } from './emit-span.js';

export interface EmitRewardOptions extends EmitOptions {
  /** Required for a multi-dimensional reward: the dimension that is the primary reward. */
  primaryKey?: string;
  /** Further attributes of the reward span (e.g. `makeLinkAttributes(...)`, `makeTagAttributes(...)`). */
  attributes?: Record<string, unknown>;
}

/**
 * Upstream `emit_reward`: an `agentlightning.annotation` span with `agentlightning.reward.{i}.name` /
 * `agentlightning.reward.{i}.value`. A number is the dimension `"primary"`; a record needs `primaryKey`, which
 * comes first, followed by the other dimensions in insertion order. Booleans count as 1/0 (as in Python);
 * NaN, ±Infinity and non-numbers raise `ValidationError`.
 */
export function emitReward(
  reward: number | boolean | Readonly<Record<string, number | boolean>>,
  options: EmitRewardOptions = {},
): SpanCoreFields {
  const dimensions = rewardDimensions(reward, options.primaryKey);
  return emitAnnotation(
    { [LightningSpanAttributes.REWARD]: dimensions, ...options.attributes },
    { propagate: options.propagate },
  );
}

/** The ordered reward dimensions of a reward value; validates as {@link emitReward} does. */
export function rewardDimensions(reward: unknown, primaryKey?: string): RewardModel[] {
  if (typeof reward === 'number' || typeof reward === 'boolean') {
    return [{ name: 'primary', value: rewardNumber(reward, 'reward') }];
  }
  if (!isPlainRecord(reward)) {
    throw new ValidationError(
      `reward must be a number or a record of numbers, got ${describeValue(reward)}`,
    );
  }
  const values = new Map<string, number>();
  for (const [key, value] of Object.entries(reward)) {
    values.set(key, rewardNumber(value, `reward['${key}']`));
  }
  const keys = [...values.keys()];
  if (primaryKey === undefined || primaryKey === null) {
    throw new ValidationError(
      `primaryKey is required when reward is a record (keys: ${keys.join(', ') || 'none'})`,
    );
  }
  if (!values.has(primaryKey)) {
    throw new ValidationError(
      `primaryKey '${primaryKey}' is not a key of reward (keys: ${keys.join(', ') || 'none'})`,
    );
  }
  const dimensions: RewardModel[] = [{ name: primaryKey, value: values.get(primaryKey)! }];
  for (const [name, value] of values) if (name !== primaryKey) dimensions.push({ name, value });
  return dimensions;
}

function rewardNumber(value: unknown, field: string): number {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'number') {
    throw new ValidationError(`${field} must be a number, got ${describeValue(value)}`);
  }
  if (!Number.isFinite(value)) {
    throw new ValidationError(`${field} must be a finite number, got ${String(value)}`);
  }
  return value;
}
