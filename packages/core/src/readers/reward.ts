import { parsePythonJson } from '../attributes/python-json.js';
import { coercePythonFloat, pythonTruthy } from '../attributes/python-values.js';
import { filterAndUnflattenAttributes, isPlainRecord } from '../attributes/unflatten.js';
import { ValidationError } from '../errors.js';
import { AGL_ANNOTATION, LightningSpanAttributes, type RewardModel } from '../semconv.js';
import type { SpanLike } from '../types/span.js';
import type { Triplet } from '../types/triplet.js';

/**
 * Pure reward readers with the semantics of upstream `emitter/reward.py` (v0.3.0): `get_rewards_from_span`,
 * `get_reward_value`, `is_reward_span`, `find_reward_spans`, `find_final_reward`. They read a span's name and
 * attributes only, so they work on stored `Span`s, OpenTelemetry `ReadableSpan`s and emitter output alike.
 */

const AGENTOPS_OUTPUT_KEYS = ['agentops.task.output', 'agentops.entity.output'] as const;

/**
 * Upstream `get_rewards_from_span`: the reward dimensions written by `emit_reward`
 * (`agentlightning.reward.{i}.name` / `.value`), primary first; `[]` when no attribute key starts with
 * `agentlightning.reward`. As upstream (which validates with Pydantic), malformed reward attributes throw
 * `ValidationError`: they must form a list of `{name: string, value: float}` (values may be numbers,
 * booleans or Python float strings, as Pydantic's lax mode accepts).
 */
export function getRewardsFromSpan(span: SpanLike): RewardModel[] {
  const attributes = span.attributes ?? {};
  const prefix = LightningSpanAttributes.REWARD;
  // Upstream tests `key.startswith("agentlightning.reward")` — without the dot.
  if (!Object.keys(attributes).some((key) => key.startsWith(prefix))) return [];
  const list = filterAndUnflattenAttributes(attributes, prefix);
  if (!Array.isArray(list)) {
    throw new ValidationError(`span '${span.name}': ${prefix}.* attributes do not form a list`);
  }
  return list.map((item, index) => {
    const value = isPlainRecord(item) ? coercePythonFloat(item.value) : null;
    if (!isPlainRecord(item) || typeof item.name !== 'string' || value === null) {
      throw new ValidationError(
        `span '${span.name}': ${prefix}.${index} needs a string 'name' and a float 'value'`,
      );
    }
    return { name: item.name, value };
  });
}

/**
 * Upstream `get_reward_value`: the primary reward of a span, or `null`. Reads, in this order:
 * 1. the v0.3 reward list (`agentlightning.reward.0.value`, see {@link getRewardsFromSpan});
 * 2. AgentOps' `agentops.task.output`, then `agentops.entity.output`: a JSON string `{"type": "reward",
 *    "value": …}` (Python JSON: `NaN`/`Infinity` allowed). A payload of that type without a value ends the
 *    search with `null`; a payload that parses to a non-empty non-object (e.g. `"[1]"`, `"5"`) throws
 *    `ValidationError`, as upstream's `.get` on it raises;
 * 3. the v0.2 attribute `reward`, on spans named `agentlightning.annotation` only (as upstream checks it).
 *
 * The legacy encodings (2, 3) return the stored value unconverted, as upstream does (it only logs an error
 * when it is not a float): a JSON integer stays an integer, and a non-numeric value is passed through, so
 * the result is a number for every well-formed span.
 */
export function getRewardValue(span: SpanLike): number | null {
  const rewards = getRewardsFromSpan(span);
  if (rewards.length > 0) return rewards[0]!.value;
  const attributes = span.attributes ?? {};
  for (const key of AGENTOPS_OUTPUT_KEYS) {
    const payload = readAgentOpsOutput(span, key, attributes[key]);
    if (payload !== null && isPlainRecord(payload) && payload.type === 'reward') {
      return (payload.value ?? null) as number | null;
    }
  }
  if (span.name === AGL_ANNOTATION && Object.keys(attributes).length > 0) {
    return (attributes.reward ?? null) as number | null;
  }
  return null;
}

/** The decoded AgentOps output, or `null` when upstream would not look further (absent, falsy, not JSON). */
function readAgentOpsOutput(span: SpanLike, key: string, output: unknown): unknown {
  if (!pythonTruthy(output)) return null;
  let decoded: unknown = null;
  if (isPlainRecord(output)) decoded = output;
  else if (typeof output === 'string') {
    try {
      decoded = parsePythonJson(output);
    } catch {
      return null;
    }
  }
  if (!pythonTruthy(decoded)) return null;
  if (!isPlainRecord(decoded)) {
    throw new ValidationError(`span '${span.name}': attribute '${key}' is JSON but not an object`);
  }
  return decoded;
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

/**
 * A rollout's final reward from its triplets (upstream's VERL daemon, the reward LightningRL trains every call
 * with): the last non-null triplet reward, searching backwards; `null` when no triplet carries one.
 */
export function findFinalTripletReward(triplets: readonly Triplet[]): number | null {
  for (let i = triplets.length - 1; i >= 0; i--) {
    const reward = triplets[i]!.reward;
    if (reward !== null && reward !== undefined) return reward;
  }
  return null;
}
