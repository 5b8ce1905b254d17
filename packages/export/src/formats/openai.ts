import { sameMessage } from '../messages.js';
import type { ChatMessage, ChatTool } from '../record.js';
import { conversationsWithSkips, openaiMessage, passesMinReward, toolsField } from './chat.js';
import type { RolloutFormat, TaskFormat } from './format.js';
import { preferencePairs } from './preference.js';

/**
 * OpenAI fine-tuning JSONL (also accepted by Together, Fireworks, Azure Foundry). Supervised:
 * `{messages, tools?}` with `weight` on assistant messages: 1 on replies the model generated in this
 * conversation, 0 on assistant turns that were already in the first prompt (e.g. few-shot examples).
 */
export interface OpenAiSftRow {
  messages: ChatMessage[];
  tools?: ChatTool[];
}

export const openaiSftFormat: RolloutFormat<OpenAiSftRow> = {
  name: 'openai-sft',
  description:
    'OpenAI supervised fine-tuning: {messages (assistant weight 0|1), tools?} per conversation',
  grouping: 'rollout',
  output: { kind: 'jsonl' },
  rows(rollout, options, skip) {
    if (!passesMinReward(rollout, options.minReward, skip)) return [];
    return conversationsWithSkips(rollout, skip).map((c) => ({
      messages: c.messages.map((message, i) => {
        const out = openaiMessage(message);
        if (out.role === 'assistant') out.weight = c.generated.has(i) ? 1 : 0;
        return out;
      }),
      ...toolsField(c.tools),
    }));
  },
};

/**
 * OpenAI preference fine-tuning (DPO): `{input: {messages, tools?}, preferred_output: [assistant],
 * non_preferred_output: [assistant]}`. The API takes one assistant message per output, so the pair compares the
 * first reply after the shared prompt of the task's best and worst rollouts.
 */
export interface OpenAiDpoRow {
  input: { messages: ChatMessage[]; tools?: ChatTool[] };
  preferred_output: ChatMessage[];
  non_preferred_output: ChatMessage[];
}

export const openaiDpoFormat: TaskFormat<OpenAiDpoRow> = {
  name: 'openai-dpo',
  description:
    'OpenAI preference fine-tuning: {input, preferred_output, non_preferred_output} per task',
  grouping: 'task',
  output: { kind: 'jsonl' },
  rows(group, options, skip) {
    const rows: OpenAiDpoRow[] = [];
    let identical = 0;
    for (const { chosen, rejected } of preferencePairs(group, options, skip)) {
      const preferred = chosen.messages[chosen.prompt_length]!;
      const nonPreferred = rejected.messages[rejected.prompt_length]!;
      // OpenAI compares only the first reply: a pair that differs later (e.g. after a tool result) has nothing to
      // prefer here.
      if (sameMessage(preferred, nonPreferred)) {
        identical++;
        continue;
      }
      rows.push({
        input: {
          messages: chosen.messages.slice(0, chosen.prompt_length).map(openaiMessage),
          ...toolsField(chosen.tools),
        },
        preferred_output: [openaiMessage(preferred)],
        non_preferred_output: [openaiMessage(nonPreferred)],
      });
    }
    if (rows.length === 0 && identical > 0) skip.rollout('identical_first_replies', 2);
    return rows;
  },
};
