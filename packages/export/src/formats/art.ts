import type { Conversation } from '../conversation.js';
import { field } from '../json-shapes.js';
import type { PreparedCall, PreparedRollout } from '../prepared.js';
import type { ChatMessage, ChatTool } from '../record.js';
import { conversationsWithSkips, openaiMessage } from './chat.js';
import type { TaskFormat } from './format.js';

/**
 * OpenPipe ART `TrajectoryGroup`s (`src/art/trajectories.py`): one group per task, one `Trajectory` per rollout.
 * Trainable turns are OpenAI `Choice` objects carrying the call's logprobs and vLLM's `prompt_token_ids` /
 * `token_ids` as extra fields (what ART's tokenizer reads); other messages are plain message dicts.
 */

const FINISH_REASONS = new Set(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']);

export interface ArtChoice {
  finish_reason: string;
  index: number;
  message: ChatMessage;
  logprobs: { content: unknown[]; refusal: null } | null;
  prompt_token_ids?: number[];
  token_ids?: number[];
}

export interface ArtHistory {
  messages_and_choices: Array<ChatMessage | ArtChoice>;
  tools: ChatTool[] | null;
}

export interface ArtTrajectory extends ArtHistory {
  additional_histories: ArtHistory[];
  reward: number;
  metrics: Record<string, number | boolean>;
  metadata: Record<string, string | number | boolean | null>;
  logs: string[];
}

export interface ArtTrajectoryGroup {
  trajectories: ArtTrajectory[];
  metadata: Record<string, string | number | boolean | null>;
  exceptions: unknown[];
}

/** `ChatCompletionTokenLogprob` entries, or null when the call recorded only bare numbers (or nothing). */
function logprobContent(call: PreparedCall): unknown[] | null {
  if (!call.logprob_entries || !call.logprobs) return null;
  return call.logprob_entries.map((entry) => ({
    token: String(field(entry, 'token') ?? ''),
    logprob: field(entry, 'logprob'),
    bytes: Array.isArray(field(entry, 'bytes')) ? field(entry, 'bytes') : null,
    top_logprobs: Array.isArray(field(entry, 'top_logprobs')) ? field(entry, 'top_logprobs') : [],
  }));
}

function choiceOf(call: PreparedCall): ArtChoice {
  const message = openaiMessage(call.response_message!);
  message.role = 'assistant';
  if (message.content === undefined) message.content = null;
  const reason =
    call.finish_reason && FINISH_REASONS.has(call.finish_reason)
      ? call.finish_reason
      : message.tool_calls
        ? 'tool_calls'
        : 'stop';
  const content = logprobContent(call);
  const choice: ArtChoice = {
    finish_reason: reason,
    index: 0,
    message,
    logprobs: content ? { content, refusal: null } : null,
  };
  if (call.prompt_ids) choice.prompt_token_ids = call.prompt_ids;
  if (call.response_ids) choice.token_ids = call.response_ids;
  return choice;
}

function historyOf(conversation: Conversation): ArtHistory {
  return {
    messages_and_choices: conversation.messages.map((message, i) => {
      const call = conversation.generated.get(i);
      return call ? choiceOf(call) : openaiMessage(message);
    }),
    tools: conversation.tools.length > 0 ? conversation.tools : null,
  };
}

function trajectoryOf(rollout: PreparedRollout, conversations: Conversation[]): ArtTrajectory {
  const [main, ...others] = conversations.map(historyOf);
  return {
    ...main!,
    additional_histories: others,
    reward: rollout.reward,
    metrics: {
      num_llm_calls: rollout.calls.length,
      num_histories: conversations.length,
      has_reward: rollout.has_reward,
    },
    metadata: {
      rollout_id: rollout.rollout_id,
      attempt_id: rollout.attempt_id,
      task_id: rollout.task_id,
      mode: rollout.mode,
    },
    logs: [],
  };
}

export const artFormat: TaskFormat<ArtTrajectoryGroup> = {
  name: 'art',
  description:
    'OpenPipe ART: one TrajectoryGroup per task (JSONL), Choices with logprobs and token ids',
  grouping: 'task',
  output: { kind: 'jsonl' },
  rows(group, _options, skip) {
    const trajectories: ArtTrajectory[] = [];
    for (const rollout of group) {
      const conversations = conversationsWithSkips(rollout, skip);
      if (conversations.length > 0) trajectories.push(trajectoryOf(rollout, conversations));
    }
    if (trajectories.length === 0) return [];
    return [{ trajectories, metadata: { task_id: group[0]!.task_id }, exceptions: [] }];
  },
};
