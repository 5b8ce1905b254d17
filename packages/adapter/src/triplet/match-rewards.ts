import { greaterThan, sortByTime } from './time-order.js';
import type { TraceTree } from './trace-tree.js';

/** Upstream `RewardMatchPolicy`: how reward spans are matched to LLM calls. */
export const RewardMatchPolicy = Object.freeze({
  /** Among all spans, ordered by start time (the default). */
  FIRST_OCCURRENCE: 'first_occurrence',
  /** Among the children of each span only. */
  FIRST_SIBLING: 'first_sibling',
} as const);
export type RewardMatchPolicy = (typeof RewardMatchPolicy)[keyof typeof RewardMatchPolicy];

/**
 * Upstream `TraceTree.match_rewards`: span id → reward of the LLM calls that get one. Each reward span (a
 * span from which `getRewardValue` reads a value) is given to the latest candidate call that ended no later
 * than the reward started and has no reward yet, searching backwards from the most recent:
 * - `first_occurrence`: candidates are the calls seen so far walking all spans sorted by start time (a
 *   stable sort, so depth-first order breaks ties);
 * - `first_sibling`: the walk runs over the children of each span separately, in child order, and the
 *   candidates are the calls among those siblings.
 * A call and its reward may be the same span; its reward then needs its end <= its start.
 */
export function matchRewards(
  root: TraceTree,
  policy: RewardMatchPolicy,
  llmCalls: readonly TraceTree[],
): Map<string, unknown> {
  const callIds = new Set(llmCalls.map((call) => call.id));
  const rewards = new Map<string, unknown>();
  const walk = (nodes: readonly TraceTree[]): void => {
    const candidates: TraceTree[] = [];
    for (const node of nodes) {
      if (callIds.has(node.id)) candidates.push(node);
      const value = node.rewardValue();
      if (value === null) continue;
      for (let i = candidates.length - 1; i >= 0; i--) {
        const call = candidates[i]!;
        const what = () =>
          `end time of span '${call.id}' or start time of reward span '${node.id}'`;
        if (greaterThan(call.endTime, node.startTime, what)) continue;
        if (rewards.has(call.id)) continue;
        rewards.set(call.id, value);
        break;
      }
    }
  };
  if (policy === RewardMatchPolicy.FIRST_OCCURRENCE) {
    walk(
      sortByTime(
        root.traverse(),
        (node) => node.startTime,
        (node) => `start time of span '${node.id}'`,
      ),
    );
  } else {
    for (const node of root.traverse()) walk(node.children);
  }
  return rewards;
}
