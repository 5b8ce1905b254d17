import type { Rollout, Triplet } from '@arclight/core';

/** An OpenAI chat message as the exporters read and write it (`ChatCompletionMessageParam`-like). */
export interface ChatMessage {
  role: string;
  content?: unknown;
  name?: string;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  [extra: string]: unknown;
}

/** An assistant tool call in OpenAI's chat format (`arguments` is a JSON string). */
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A tool definition in OpenAI's chat format. */
export interface ChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: unknown };
}

/** One LLM call as a conversation: the prompt messages plus the assistant reply, and the tools offered. */
export interface CallMessages {
  /** Prompt messages, optionally followed by the assistant reply (as `TraceToMessages` yields them). */
  messages: ChatMessage[];
  tools?: ChatTool[] | null;
}

/**
 * The unit every writer consumes: one rollout (its latest attempt) with the triplets the adapter produced
 * from its spans, one per LLM call, in call order. Writers read only this, never the adapter's internals.
 */
export interface ExportRecord {
  rollout: Rollout;
  attempt_id: string | null;
  /** The task (GRPO group) key; when absent it is derived from the rollout (see `taskIdOf`). */
  task_id?: string | null;
  triplets: Triplet[];
  /**
   * Optional per-call OpenAI conversations (e.g. from `TraceToMessages`), aligned with `triplets` by index.
   * When absent (or an entry is null) the messages are rebuilt from each triplet's `raw_content`.
   */
  messages?: Array<CallMessages | null> | null;
}
