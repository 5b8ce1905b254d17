import type { Conversation } from '../conversation.js';
import { conversationsOf } from '../conversation.js';
import { messageKey } from '../messages.js';
import type { PreparedRollout } from '../prepared.js';
import { promptKey } from './chat.js';
import type { FormatOptions, SkipCounter } from './format.js';

/** A chosen/rejected pair of conversations that share their prompt. */
export interface PreferencePair {
  chosen: Conversation;
  rejected: Conversation;
  chosen_rollout: PreparedRollout;
  rejected_rollout: PreparedRollout;
}

const continuationKey = (c: Conversation): string =>
  JSON.stringify(c.messages.slice(c.prompt_length).map(messageKey));

/**
 * DPO pairs of a task: its best rollout (highest reward; the first one on ties) against its worst (lowest).
 * Their conversations are paired by identical prompt (the messages before the first reply), so multi-agent
 * rollouts pair agent by agent. Other rollouts of the task are not used (counted as `not_best_or_worst`).
 */
export function preferencePairs(
  group: PreparedRollout[],
  options: FormatOptions,
  skip: SkipCounter,
): PreferencePair[] {
  if (group.length < 2) {
    skip.rollout('single_rollout_task', group.length);
    return [];
  }
  let best = group[0]!;
  let worst = group[0]!;
  for (const rollout of group) {
    if (rollout.reward > best.reward) best = rollout;
    if (rollout.reward < worst.reward) worst = rollout;
  }
  if (best.reward - worst.reward <= options.minRewardGap || best === worst) {
    skip.rollout('no_reward_difference', group.length);
    return [];
  }
  skip.rollout('not_best_or_worst', group.length - 2);

  const rejectedByPrompt = new Map<string, Conversation[]>();
  for (const conversation of conversationsOf(worst.calls)) {
    const key = promptKey(conversation);
    rejectedByPrompt.set(key, [...(rejectedByPrompt.get(key) ?? []), conversation]);
  }
  const pairs: PreferencePair[] = [];
  for (const chosen of conversationsOf(best.calls)) {
    const candidates = rejectedByPrompt.get(promptKey(chosen));
    const rejected = candidates?.shift();
    if (!rejected) continue;
    if (continuationKey(chosen) === continuationKey(rejected)) continue;
    pairs.push({ chosen, rejected, chosen_rollout: best, rejected_rollout: worst });
  }
  if (pairs.length === 0) skip.rollout('no_pairable_conversations', 2);
  return pairs;
}
