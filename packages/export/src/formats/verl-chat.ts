import type { ChatMessage, ChatTool } from '../record.js';
import {
  doubleField,
  int32Field,
  messagesField,
  stringField,
  structField,
  toolsField as toolsColumn,
} from '../sinks/parquet-nested.js';
import type { ParquetColumn } from '../sinks/parquet-sink.js';
import { stableStringify } from '../task-id.js';
import { conversationsWithSkips, openaiMessage, passesMinReward, taskPrompt } from './chat.js';
import type { RolloutFormat, TaskFormat } from './format.js';

/**
 * Parquet for verl's own dataset classes, loaded with their default config keys:
 * - `verl-sft`: `verl.utils.dataset.multiturn_sft_dataset.MultiTurnSFTDataset` (`messages`, `tools`).
 * - `verl-rlhf`: `verl.utils.dataset.rl_dataset.RLHFDataset` (`prompt`, `data_source`, `reward_model`,
 *   `extra_info.index`), one row per task for online generation (GRPO/PPO).
 * Message `content` is text (multimodal parts are written as JSON text), tool-call `arguments` and tool
 * `parameters` are JSON text (chat templates render strings as they are).
 */

/** A message as verl's chat template sees it: string content, every struct field present (null when absent). */
export interface VerlMessage {
  role: string;
  content: string | null;
  tool_calls: Array<{
    id: string;
    type: string;
    function: { name: string; arguments: string };
  }> | null;
  tool_call_id: string | null;
  name: string | null;
}

export interface VerlTool {
  type: string;
  function: { name: string; description: string | null; parameters: string | null };
}

function verlMessage(message: ChatMessage): VerlMessage {
  const m = openaiMessage(message);
  const content =
    m.content === null || m.content === undefined
      ? ''
      : typeof m.content === 'string'
        ? m.content
        : JSON.stringify(m.content);
  return {
    role: m.role,
    content,
    tool_calls: m.tool_calls
      ? m.tool_calls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.function.name, arguments: c.function.arguments },
        }))
      : null,
    tool_call_id: m.tool_call_id ?? null,
    name: typeof m.name === 'string' ? m.name : null,
  };
}

function verlTools(tools: ChatTool[]): VerlTool[] | null {
  if (tools.length === 0) return null;
  return tools.map((t) => ({
    type: 'function',
    function: {
      name: t.function.name,
      description: t.function.description ?? null,
      parameters:
        t.function.parameters === undefined ? null : JSON.stringify(t.function.parameters),
    },
  }));
}

export interface VerlSftRow {
  messages: VerlMessage[];
  tools: VerlTool[];
  rollout_id: string;
  task_id: string;
  reward: number;
}

const VERL_SFT_COLUMNS: readonly ParquetColumn[] = [
  { name: 'messages', type: 'nested', nullable: false, tree: messagesField('messages') },
  { name: 'tools', type: 'nested', nullable: true, tree: toolsColumn('tools') },
  { name: 'rollout_id', type: 'string', nullable: false },
  { name: 'task_id', type: 'string', nullable: false },
  { name: 'reward', type: 'double', nullable: false },
];

export const verlSftFormat: RolloutFormat<VerlSftRow> = {
  name: 'verl-sft',
  description: 'verl MultiTurnSFTDataset Parquet: {messages, tools} per conversation',
  grouping: 'rollout',
  output: { kind: 'parquet', columns: VERL_SFT_COLUMNS },
  rows(rollout, options, skip) {
    if (!passesMinReward(rollout, options.minReward, skip)) return [];
    return conversationsWithSkips(rollout, skip).map((c) => ({
      messages: c.messages.map(verlMessage),
      // An empty list, not null: verl's MultiTurnSFTDataset iterates every row's tools (null raises TypeError).
      tools: verlTools(c.tools) ?? [],
      rollout_id: rollout.rollout_id,
      task_id: rollout.task_id,
      reward: rollout.reward,
    }));
  },
};

export interface VerlRlhfRow {
  prompt: VerlMessage[];
  data_source: string;
  ability: string;
  reward_model: { style: string; ground_truth: string };
  extra_info: {
    index: number;
    task_id: string;
    task_input: string;
    reward_mean: number;
    num_rollouts: number;
  };
  tools: VerlTool[] | null;
}

const VERL_RLHF_COLUMNS: readonly ParquetColumn[] = [
  { name: 'prompt', type: 'nested', nullable: false, tree: messagesField('prompt') },
  { name: 'data_source', type: 'string', nullable: false },
  { name: 'ability', type: 'string', nullable: false },
  {
    name: 'reward_model',
    type: 'nested',
    nullable: false,
    tree: structField('reward_model', [stringField('style'), stringField('ground_truth')]),
  },
  {
    name: 'extra_info',
    type: 'nested',
    nullable: false,
    tree: structField('extra_info', [
      int32Field('index'),
      stringField('task_id'),
      stringField('task_input'),
      doubleField('reward_mean'),
      int32Field('num_rollouts'),
    ]),
  },
  { name: 'tools', type: 'nested', nullable: true, tree: toolsColumn('tools') },
];

/** `extra_info.index`: a stable non-negative 31-bit number of the task id (FNV-1a). */
function taskIndex(taskId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < taskId.length; i++) {
    hash ^= taskId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 1) & 0x7fffffff;
}

export const verlRlhfFormat: TaskFormat<VerlRlhfRow> = {
  name: 'verl-rlhf',
  description:
    'verl RLHFDataset Parquet (GRPO/PPO prompts): {prompt, data_source, reward_model, extra_info} per task',
  grouping: 'task',
  output: { kind: 'parquet', columns: VERL_RLHF_COLUMNS },
  rows(group, _options, skip) {
    const task = taskPrompt(group, skip);
    if (!task) return [];
    const { first, call, rewardMean } = task;
    const input = stableStringify(first.record.rollout.input);
    return [
      {
        prompt: call.prompt_messages.map(verlMessage),
        data_source: 'arclight',
        ability: 'agent',
        reward_model: { style: 'rule', ground_truth: input },
        extra_info: {
          index: taskIndex(first.task_id),
          task_id: first.task_id,
          task_input: input,
          reward_mean: rewardMean,
          num_rollouts: group.length,
        },
        tools: verlTools(call.tools),
      },
    ];
  },
};
