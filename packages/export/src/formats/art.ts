import type { Conversation } from '../conversation.js';
import { field } from '../json-shapes.js';
import type { PreparedCall, PreparedRollout } from '../prepared.js';
import type { ChatMessage, ChatTool } from '../record.js';
import { artLine } from './art-line.js';
import { conversationsWithSkips, openaiMessage } from './chat.js';
import type { TaskFormat } from './format.js';

/**
 * OpenPipe ART `TrajectoryGroup`s, one JSON line per task in the layout of ART's JSONL serializer
 * (`art.utils.trajectory_migration.deserialize_trajectory_groups` loads it), one `Trajectory` per rollout.
 * Trainable turns are OpenAI `Choice` objects (`{finish_reason, index, message, logprobs}`) whose logprob
 * tokens are written as `token_id:<id>` with the engine's sampled ids (vLLM's `return_tokens_as_token_ids`
 * form): `art.preprocessing.tokenize` splices exactly those ids into the sequence. ART trains only Choices with
 * logprobs: calls recorded without them (request them with `requestLogprobs`) stay plain assistant messages and
 * are counted as `no_logprobs`. Other messages are plain message dicts.
 */

const FINISH_REASONS = new Set(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']);

/** One generated token as written (OpenAI's `ChatCompletionTokenLogprob`). */
export interface ArtTokenLogprob {
  token: string;
  logprob: number;
  bytes: unknown[] | null;
  top_logprobs: unknown[];
}

export interface ArtChoice {
  finish_reason: string;
  index: number;
  message: ChatMessage;
  logprobs: { content: ArtTokenLogprobs; refusal: null } | null;
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

/**
 * A Choice's `logprobs.content`: one `ChatCompletionTokenLogprob` per generated token, with `token:
 * "token_id:<id>"` (the engine's ids, aligned 1:1 with the logprobs); without token ids the recorded token strings
 * are kept (ART then maps them back with `convert_tokens_to_ids`). Built on demand: `toJSON` gives the list (so
 * `JSON.stringify` of a row writes it), and the line writer (`art-line.ts`) reads `token`, `logprobs` and
 * `bytes` per index instead of building ~50 objects per call.
 */
export class ArtTokenLogprobs {
  constructor(
    /** One per generated token. */
    readonly logprobs: readonly number[],
    /** The generated token ids, aligned with `logprobs`; null when the call recorded none. */
    readonly ids: readonly number[] | null,
    /** The recorded `{token, logprob, bytes, top_logprobs}` entries, when they were objects. */
    readonly entries: readonly unknown[] | null,
  ) {}

  /** Token `i` as written: `token_id:<id>` with ids, else the recorded token string. */
  token(i: number): string {
    return this.ids ? `token_id:${this.ids[i]}` : String(field(this.entries?.[i], 'token') ?? '');
  }

  /** The recorded UTF-8 bytes of token `i`, or null. */
  bytes(i: number): unknown[] | null {
    const bytes = field(this.entries?.[i], 'bytes');
    return Array.isArray(bytes) ? bytes : null;
  }

  toJSON(): ArtTokenLogprob[] {
    return this.logprobs.map((logprob, i) => ({
      token: this.token(i),
      logprob,
      bytes: this.bytes(i),
      top_logprobs: [],
    }));
  }
}

/** The call's token logprobs, or null when it has no usable logprobs. */
function logprobContent(call: PreparedCall): ArtTokenLogprobs | null {
  return call.logprobs
    ? new ArtTokenLogprobs(call.logprobs, call.response_ids, call.logprob_entries)
    : null;
}

function choiceOf(call: PreparedCall): ArtChoice | ChatMessage {
  const content = logprobContent(call);
  if (!content) return assistantMessage(call);
  const message = openaiMessage(call.response_message!);
  message.role = 'assistant';
  if (message.content === undefined) message.content = null;
  const reason =
    call.finish_reason && FINISH_REASONS.has(call.finish_reason)
      ? call.finish_reason
      : message.tool_calls
        ? 'tool_calls'
        : 'stop';
  const choice: ArtChoice = {
    finish_reason: reason,
    index: 0,
    message,
    logprobs: { content, refusal: null },
  };
  if (call.prompt_ids) choice.prompt_token_ids = call.prompt_ids;
  if (call.response_ids) choice.token_ids = call.response_ids;
  return choice;
}

/** A reply without logprobs: a plain assistant message (ART trains it only with allow_training_without_logprobs). */
function assistantMessage(call: PreparedCall): ChatMessage {
  const message = openaiMessage(call.response_message!);
  message.role = 'assistant';
  if (message.content === undefined || message.content === null) message.content = '';
  return message;
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
  output: { kind: 'jsonl', line: artLine },
  rows(group, _options, skip) {
    const trajectories: ArtTrajectory[] = [];
    for (const rollout of group) {
      const conversations = conversationsWithSkips(rollout, skip);
      if (conversations.length === 0) continue;
      const withoutLogprobs = conversations
        .flatMap((c) => c.calls)
        .filter((c) => c.logprobs === null).length;
      skip.triplet('no_logprobs', withoutLogprobs);
      trajectories.push(trajectoryOf(rollout, conversations));
    }
    if (trajectories.length === 0) return [];
    return [{ trajectories, metadata: { task_id: group[0]!.task_id }, exceptions: [] }];
  },
};
