import {
  AGL_ANNOTATION,
  LightningSpanAttributes,
  type RewardModel,
  ValidationError,
} from '@arclight/core';
import {
  filterAndUnflattenAttributes,
  filterAttributes,
  isPlainObject,
} from '../attributes/flatten.js';
import type { SpanLike } from './span-like.js';

const AGENTOPS_OUTPUT_KEYS = ['agentops.task.output', 'agentops.entity.output'] as const;

/**
 * Upstream `get_rewards_from_span`: the reward dimensions of a span written by `emitReward`
 * (`agentlightning.reward.{i}.name/value`), primary first; `[]` for spans without them. Malformed reward
 * attributes raise `ValidationError`.
 */
export function getRewardsFromSpan(span: SpanLike): RewardModel[] {
  const attributes = { ...(span.attributes ?? {}) };
  const prefix = LightningSpanAttributes.REWARD;
  if (Object.keys(filterAttributes(attributes, prefix)).length === 0) return [];
  const list = filterAndUnflattenAttributes(attributes, prefix);
  if (!Array.isArray(list)) {
    throw new ValidationError(`span '${span.name}': ${prefix}.* attributes do not form a list`);
  }
  return list.map((item, i) => {
    const value = isPlainObject(item) ? toNumber(item.value) : null;
    if (!isPlainObject(item) || typeof item.name !== 'string' || value === null) {
      throw new ValidationError(
        `span '${span.name}': ${prefix}.${i} must have a string name and a numeric value`,
      );
    }
    return { name: item.name, value };
  });
}

/**
 * Upstream `get_reward_value`: the primary reward of a span, or `null`. Reads, in order, the v0.3 reward list
 * (`emitReward`), AgentOps' `agentops.task.output` / `agentops.entity.output` (`{"type": "reward", "value": …}`),
 * and the v0.2 `reward` attribute — the last only on spans named `agentlightning.annotation`, exactly as
 * upstream checks it.
 */
export function getRewardValue(span: SpanLike): number | null {
  const rewards = getRewardsFromSpan(span);
  if (rewards.length > 0) return rewards[0]!.value;
  const attributes = span.attributes ?? {};
  for (const key of AGENTOPS_OUTPUT_KEYS) {
    const output = attributes[key];
    if (!output) continue;
    let parsed: unknown = output;
    if (typeof output === 'string') {
      try {
        parsed = JSON.parse(output);
      } catch {
        parsed = null;
      }
    }
    if (isPlainObject(parsed) && parsed.type === 'reward') return toNumber(parsed.value);
  }
  if (span.name === AGL_ANNOTATION && attributes.reward != null) return toNumber(attributes.reward);
  return null;
}

/** Upstream `is_reward_span`: whether {@link getRewardValue} finds a reward. */
export function isRewardSpan(span: SpanLike): boolean {
  return getRewardValue(span) !== null;
}

/** Upstream `find_reward_spans`: the reward spans, in order. */
export function findRewardSpans<T extends SpanLike>(spans: readonly T[]): T[] {
  return spans.filter(isRewardSpan);
}

/** Upstream `find_final_reward`: the reward of the last reward span in list order, or `null`. */
export function findFinalReward(spans: readonly SpanLike[]): number | null {
  for (let i = spans.length - 1; i >= 0; i--) {
    const reward = getRewardValue(spans[i]!);
    if (reward !== null) return reward;
  }
  return null;
}

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
    return Number(value);
  }
  return null;
}
