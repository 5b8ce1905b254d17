import type { RolloutMode, Triplet } from '@arclight/core';
import { asIntList, asString, field, startsWithPair } from './json-shapes.js';
import { completionOf, normalizeMessages, toolsOf } from './messages.js';
import type { CallMessages, ChatMessage, ChatTool, ExportRecord } from './record.js';
import { finalReward } from './reward.js';
import { recordTaskId } from './task-id.js';

/**
 * One LLM call of a rollout, with everything the formats read, extracted once (messages and logprobs on first
 * read: see `LazyPreparedCall`).
 */
export interface PreparedCall {
  /** Position of the call in the rollout (0-based, the triplet's index). */
  readonly turn_index: number;
  readonly triplet: Triplet;
  readonly agent_name: string | null;
  readonly response_id: string | null;
  /** Null when the triplet has no (or an empty) list of ids. */
  readonly prompt_ids: number[] | null;
  readonly response_ids: number[] | null;
  /** One logprob per response token when the call recorded them (and the count matches), else null. */
  readonly logprobs: number[] | null;
  /** The raw per-token logprob entries (`{token, logprob, bytes, top_logprobs}`), when recorded. */
  readonly logprob_entries: unknown[] | null;
  readonly prompt_messages: ChatMessage[];
  /** The assistant reply (first choice); null when the call recorded no completion. */
  readonly response_message: ChatMessage | null;
  readonly finish_reason: string | null;
  readonly tools: ChatTool[];
  /** The reward the adapter matched to this call (not the rollout's). */
  readonly call_reward: number | null;
}

/** A rollout ready for the formats: ids, task, rollout reward (identical assignment) and its calls. */
export interface PreparedRollout {
  record: ExportRecord;
  rollout_id: string;
  attempt_id: string | null;
  task_id: string;
  mode: RolloutMode | null;
  /** The rollout's reward: the last non-null triplet reward, else the fill value. */
  reward: number;
  /** Whether any triplet carried a reward (false → `reward` is the fill value). */
  has_reward: boolean;
  calls: PreparedCall[];
}

const nonEmpty = (ids: number[] | null): number[] | null => (ids && ids.length > 0 ? ids : null);

function logprobsOf(
  response: unknown,
  responseIds: number[] | null,
): { values: number[] | null; entries: unknown[] | null } {
  const raw = field(response, 'logprobs') ?? field(response, 'log_probs');
  const list = Array.isArray(raw)
    ? raw
    : Array.isArray(field(raw, 'content'))
      ? (field(raw, 'content') as unknown[])
      : null;
  if (!list || list.length === 0) return { values: null, entries: null };
  // One indexed pass (this runs for every response token of every call: the hottest loop of the export).
  // An array entry has no `logprob`, so it fails the number check like any other non-object.
  const n = list.length;
  const values = new Array<number>(n);
  let allObjects = true;
  for (let i = 0; i < n; i++) {
    const item = list[i];
    let value: unknown;
    if (typeof item === 'number') {
      value = item;
      allObjects = false;
    } else if (typeof item === 'object' && item !== null) {
      value = (item as { logprob?: unknown }).logprob;
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return { values: null, entries: null };
    }
    values[i] = value;
  }
  const entries = allObjects ? list : null;
  // Logprobs must align 1:1 with the sampled ids to be usable for importance sampling.
  if (responseIds && values.length !== responseIds.length) return { values: null, entries };
  return { values, entries };
}

interface CallChat {
  prompt_messages: ChatMessage[];
  response_message: ChatMessage | null;
  finish_reason: string | null;
  tools: ChatTool[];
}

function chatOf(triplet: Triplet, callMessages: CallMessages | null | undefined): CallChat {
  const completion = completionOf(field(triplet.response, 'raw_content'));
  let prompt_messages = normalizeMessages(field(triplet.prompt, 'raw_content'));
  let response_message = completion.message;
  let tools = toolsOf(field(triplet.metadata, 'request'));
  if (callMessages) {
    const messages = callMessages.messages;
    const last = messages.at(-1);
    const endsWithReply = last?.role === 'assistant' && messages.length > 1;
    prompt_messages = endsWithReply ? messages.slice(0, -1) : messages;
    if (endsWithReply) response_message = last;
    if (callMessages.tools && callMessages.tools.length > 0) tools = callMessages.tools;
  }
  return { prompt_messages, response_message, finish_reason: completion.finish_reason, tools };
}

/**
 * The rollout's reward is read up front; each call's names, reward, token ids, logprobs and messages on first
 * use, once: chat formats never read the ids or logprobs, token formats never read the messages, and each
 * extraction walks every token or message.
 */
class LazyPreparedCall implements PreparedCall {
  #callReward: number | null | undefined;
  #agentName: string | null | undefined;
  #responseId: string | null | undefined;
  #promptIds: number[] | null | undefined;
  #responseIds: number[] | null | undefined;
  #logprobs: { values: number[] | null; entries: unknown[] | null } | undefined;
  #chat: CallChat | undefined;
  readonly #callMessages: CallMessages | null | undefined;

  constructor(
    readonly triplet: Triplet,
    readonly turn_index: number,
    callMessages: CallMessages | null | undefined,
  ) {
    this.#callMessages = callMessages;
  }

  // Read on first use: the pair formats prepare every rollout of a task but read only two, only `triplets` reads
  // the call's own reward, and the first read of a triplet or its metadata is usually a cache miss.
  get call_reward(): number | null {
    if (this.#callReward === undefined) {
      const reward = this.triplet.reward;
      this.#callReward = typeof reward === 'number' ? reward : null;
    }
    return this.#callReward;
  }

  get agent_name(): string | null {
    if (this.#agentName === undefined) this.#agentName = asString(this.triplet.metadata.agent_name);
    return this.#agentName;
  }

  get response_id(): string | null {
    if (this.#responseId === undefined) {
      this.#responseId = asString(this.triplet.metadata.response_id);
    }
    return this.#responseId;
  }

  get prompt_ids(): number[] | null {
    if (this.#promptIds === undefined) {
      this.#promptIds = nonEmpty(asIntList(field(this.triplet.prompt, 'token_ids')));
    }
    return this.#promptIds;
  }

  get response_ids(): number[] | null {
    if (this.#responseIds === undefined) {
      this.#responseIds = nonEmpty(asIntList(field(this.triplet.response, 'token_ids')));
    }
    return this.#responseIds;
  }

  /** See `promptExtends`. */
  promptExtends(prefix: readonly number[], rest: readonly number[]): boolean {
    if (this.#promptIds !== undefined) {
      return this.#promptIds !== null && startsWithPair(this.#promptIds, prefix, rest);
    }
    const raw = field(this.triplet.prompt, 'token_ids');
    if (!Array.isArray(raw) || !startsWithPair(raw, prefix, rest)) return false; // validated later, if read
    // The compared ids equal checked integers: only the ids after them need checking. Not empty: `prefix` is not.
    this.#promptIds = asIntList(raw, prefix.length + rest.length);
    return this.#promptIds !== null;
  }

  private get extractedLogprobs(): { values: number[] | null; entries: unknown[] | null } {
    this.#logprobs ??= logprobsOf(this.triplet.response, this.response_ids);
    return this.#logprobs;
  }

  get logprobs(): number[] | null {
    return this.extractedLogprobs.values;
  }

  get logprob_entries(): unknown[] | null {
    return this.extractedLogprobs.entries;
  }

  private get chat(): CallChat {
    this.#chat ??= chatOf(this.triplet, this.#callMessages);
    return this.#chat;
  }

  get prompt_messages(): ChatMessage[] {
    return this.chat.prompt_messages;
  }

  get response_message(): ChatMessage | null {
    return this.chat.response_message;
  }

  get finish_reason(): string | null {
    return this.chat.finish_reason;
  }

  get tools(): ChatTool[] {
    return this.chat.tools;
  }
}

/**
 * For the prefix merge: do the call's prompt ids start with `prefix` then `rest` (both checked id lists)? A
 * prepared call whose ids were not read yet checks only the ids after them (the others equal checked ids), and
 * keeps the result as its `prompt_ids`: the merge compares every id of a call's prompt with the row so far, and
 * checking them all again first doubled that walk. False also when the prompt has no valid ids.
 */
export function promptExtends(
  call: PreparedCall,
  prefix: readonly number[],
  rest: readonly number[],
): boolean {
  if (call instanceof LazyPreparedCall) return call.promptExtends(prefix, rest);
  return call.prompt_ids !== null && startsWithPair(call.prompt_ids, prefix, rest);
}

export interface PrepareOptions {
  /** Reward of rollouts whose triplets carry none (upstream `reward_fillna_value`, default 0). */
  rewardFillna?: number;
}

export function prepareRollout(
  record: ExportRecord,
  options: PrepareOptions = {},
): PreparedRollout {
  const { value, found } = finalReward(record.triplets);
  return {
    record,
    rollout_id: record.rollout.rollout_id,
    attempt_id: record.attempt_id,
    task_id: recordTaskId(record),
    mode: record.rollout.mode,
    reward: found ? value : (options.rewardFillna ?? 0),
    has_reward: found,
    calls: record.triplets.map((t, i) => new LazyPreparedCall(t, i, record.messages?.[i])),
  };
}
