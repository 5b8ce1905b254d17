import { mergeTools } from '../conversation.js';
import type { ChatMessage, ChatTool } from '../record.js';
import { toolsField, trlMessage } from './chat.js';
import type { TaskFormat } from './format.js';
import { preferencePairs } from './preference.js';

/** Preference, conversational with explicit prompt: `DPOTrainer` (and `RewardTrainer`). */
export interface TrlDpoRow {
  prompt: ChatMessage[];
  chosen: ChatMessage[];
  rejected: ChatMessage[];
  /** The tools offered to either side (DPOTrainer renders them into the prompt). */
  tools?: ChatTool[];
}

export const trlDpoFormat: TaskFormat<TrlDpoRow> = {
  name: 'trl-dpo',
  description: 'TRL DPO: {prompt, chosen, rejected, tools?}, best vs worst rollout of each task',
  grouping: 'task',
  output: { kind: 'jsonl' },
  rows(group, options, skip) {
    return preferencePairs(group, options, skip).map(({ chosen, rejected }) => ({
      prompt: chosen.messages.slice(0, chosen.prompt_length).map(trlMessage),
      chosen: chosen.messages.slice(chosen.prompt_length).map(trlMessage),
      rejected: rejected.messages.slice(rejected.prompt_length).map(trlMessage),
      ...toolsField(mergeTools(chosen.tools, rejected.tools)),
    }));
  },
};
