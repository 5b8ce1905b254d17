import type { ChatMessage } from '../record.js';
import { trlMessage } from './chat.js';
import type { TaskFormat } from './format.js';
import { preferencePairs } from './preference.js';

/** Preference, conversational with explicit prompt: `DPOTrainer` (and `RewardTrainer`). */
export interface TrlDpoRow {
  prompt: ChatMessage[];
  chosen: ChatMessage[];
  rejected: ChatMessage[];
}

export const trlDpoFormat: TaskFormat<TrlDpoRow> = {
  name: 'trl-dpo',
  description: 'TRL DPO: {prompt, chosen, rejected}, best vs worst rollout of each task',
  grouping: 'task',
  output: { kind: 'jsonl' },
  rows(group, options, skip) {
    return preferencePairs(group, options, skip).map(({ chosen, rejected }) => ({
      prompt: chosen.messages.slice(0, chosen.prompt_length).map(trlMessage),
      chosen: chosen.messages.slice(chosen.prompt_length).map(trlMessage),
      rejected: rejected.messages.slice(rejected.prompt_length).map(trlMessage),
    }));
  },
};
