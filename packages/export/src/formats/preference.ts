import type { Conversation } from '../conversation.js';
import { conversationsOf } from '../conversation.js';
import { sameMessages } from '../messages.js';
import type { PreparedRollout } from '../prepared.js';
import type { ChatMessage } from '../record.js';
import type { FormatOptions, SkipCounter } from './format.js';

/** A chosen/rejected pair of conversations that share their prompt. */
export interface PreferencePair {
  chosen: Conversation;
  rejected: Conversation;
  chosen_rollout: PreparedRollout;
  rejected_rollout: PreparedRollout;
}

/** The messages before the conversation's first generated reply. */
const promptOf = (c: Conversation): ChatMessage[] => c.messages.slice(0, c.prompt_length);
/** The first generated reply and everything after it. */
const continuationOf = (c: Conversation): ChatMessage[] => c.messages.slice(c.prompt_length);

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

  // Each chosen conversation takes the first not yet taken rejected one with the same prompt (messages compared
  // directly: a rollout has a few conversations, so a scan costs less than keys built from every message).
  const rejectedConversations = conversationsOf(worst.calls);
  const rejectedPrompts = rejectedConversations.map(promptOf);
  const taken = rejectedConversations.map(() => false);
  const pairs: PreferencePair[] = [];
  for (const chosen of conversationsOf(best.calls)) {
    const prompt = promptOf(chosen);
    const i = rejectedPrompts.findIndex((p, j) => !taken[j] && sameMessages(p, prompt));
    if (i < 0) continue;
    taken[i] = true;
    const rejected = rejectedConversations[i]!;
    if (sameMessages(continuationOf(chosen), continuationOf(rejected))) continue;
    pairs.push({ chosen, rejected, chosen_rollout: best, rejected_rollout: worst });
  }
  if (pairs.length === 0) skip.rollout('no_pairable_conversations', 2);
  return pairs;
}
