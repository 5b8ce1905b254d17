import type { ChatMessage, ChatTool } from '../record.js';
import { stableStringify } from '../task-id.js';
import { zerosOf } from '../token-merge.js';
import {
  conversationsWithSkips,
  passesMinReward,
  taskPrompt,
  toolsField,
  trlMessage,
} from './chat.js';
import type { RolloutFormat, TaskFormat } from './format.js';
import { mergedRunsOf } from './verl.js';

/** TRL dataset rows (huggingface/trl `docs/source/dataset_formats.md`), conversational flavour. */

/** Language modeling, conversational: `SFTTrainer`. */
export interface TrlSftRow {
  messages: ChatMessage[];
  tools?: ChatTool[];
}

export const trlSftFormat: RolloutFormat<TrlSftRow> = {
  name: 'trl-sft',
  description: 'TRL SFT, conversational: {messages, tools?} per conversation',
  grouping: 'rollout',
  output: { kind: 'jsonl' },
  rows(rollout, options, skip) {
    if (!passesMinReward(rollout, options.minReward, skip)) return [];
    return conversationsWithSkips(rollout, skip).map((c) => ({
      messages: c.messages.map(trlMessage),
      ...toolsField(c.tools),
    }));
  },
};

/** Pre-tokenized SFT: engine ids, loss only on sampled tokens (`assistant_masks`), no retokenization. */
export interface TrlSftTokensRow {
  input_ids: number[];
  assistant_masks: number[];
}

export const trlSftTokensFormat: RolloutFormat<TrlSftTokensRow> = {
  name: 'trl-sft-tokens',
  description: 'TRL SFT, pre-tokenized: {input_ids, assistant_masks} per prefix-merged trajectory',
  grouping: 'rollout',
  output: {
    kind: 'jsonl',
    line(row, out) {
      out.text('{"input_ids":');
      out.ints(row.input_ids);
      out.text(',"assistant_masks":');
      out.mask(row.assistant_masks);
      out.text('}');
    },
  },
  rows(rollout, options, skip) {
    if (!passesMinReward(rollout, options.minReward, skip)) return [];
    // A merged run's ids are its last call's prompt + response (each call's prompt extends the one before: see
    // `mergedRuns`); the mask marks each call's response in them. Native copies and fills, no per-id pushes.
    return mergedRunsOf(rollout, skip).map((run) => {
      const last = run[run.length - 1]!;
      const input_ids = last.prompt_ids!.concat(last.response_ids!);
      const assistant_masks = zerosOf(input_ids.length);
      for (const call of run) {
        const start = call.prompt_ids!.length;
        assistant_masks.fill(1, start, start + call.response_ids!.length);
      }
      return { input_ids, assistant_masks };
    });
  },
};

/** Unpaired preference, conversational: `KTOTrainer`. */
export interface TrlKtoRow {
  prompt: ChatMessage[];
  completion: ChatMessage[];
  label: boolean;
  tools?: ChatTool[];
}

export const trlKtoFormat: RolloutFormat<TrlKtoRow> = {
  name: 'trl-kto',
  description:
    'TRL KTO: {prompt, completion, label, tools?} per conversation, label = reward ≥ threshold',
  grouping: 'rollout',
  output: { kind: 'jsonl' },
  rows(rollout, options, skip) {
    const label = rollout.reward >= options.rewardThreshold;
    return conversationsWithSkips(rollout, skip).map((c) => ({
      prompt: c.messages.slice(0, c.prompt_length).map(trlMessage),
      completion: c.messages.slice(c.prompt_length).map(trlMessage),
      label,
      ...toolsField(c.tools),
    }));
  },
};

/**
 * Prompt-only, conversational: `GRPOTrainer` / `RLOOTrainer` (online generation). Extra columns reach the
 * reward functions as keyword arguments.
 */
export interface TrlPromptRow {
  prompt: ChatMessage[];
  task_id: string;
  /** The task's input as JSON (e.g. for a reward function that needs the ground truth). */
  task_input: string;
  /** Mean reward of the exported rollouts of the task. */
  reward_mean: number;
  num_rollouts: number;
  /** The tools offered with the prompt (GRPOTrainer passes a `tools` column to the chat template). */
  tools?: ChatTool[];
}

export const trlPromptFormat: TaskFormat<TrlPromptRow> = {
  name: 'trl-prompt',
  description: 'TRL prompt-only (GRPO/RLOO): {prompt, task_id, task_input, …} per task',
  grouping: 'task',
  output: { kind: 'jsonl' },
  rows(group, _options, skip) {
    const task = taskPrompt(group, skip);
    if (!task) return [];
    const { first, call, rewardMean } = task;
    return [
      {
        prompt: call.prompt_messages.map(trlMessage),
        task_id: first.task_id,
        task_input: stableStringify(first.record.rollout.input),
        reward_mean: rewardMean,
        num_rollouts: group.length,
        ...toolsField(call.tools),
      },
    ];
  },
};
