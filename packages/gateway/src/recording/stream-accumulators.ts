import { asArray, asIntArray, asRecord, asString, type JsonRecord } from '@arclight/core';

/** Folds the JSON events of a stream into the object the same call without `stream` returns. */
export interface StreamAccumulator {
  add(event: JsonRecord): void;
  /** The response assembled so far (complete once the stream finished). */
  result(): JsonRecord;
}

const ROOT_KEYS = ['id', 'object', 'model', 'created', 'system_fingerprint', 'service_tier'];

function copyRootFields(root: JsonRecord, chunk: JsonRecord): void {
  for (const key of ROOT_KEYS) {
    if (root[key] === undefined && chunk[key] !== undefined && chunk[key] !== null)
      root[key] = chunk[key];
  }
  if (asRecord(chunk.usage)) root.usage = chunk.usage;
}

function append<T>(target: T[] | undefined, items: readonly T[]): T[] {
  const out = target ?? [];
  for (const item of items) out.push(item);
  return out;
}

interface ToolCallState {
  id?: string;
  type?: string;
  name?: string;
  arguments: string;
}

interface ChatChoiceState {
  role?: string;
  content?: string;
  refusal?: string;
  finishReason?: string;
  stopReason?: unknown;
  toolCalls: Map<number, ToolCallState>;
  tokenIds?: number[];
  logprobs?: unknown[];
}

/**
 * Chat Completions chunks → a `chat.completion`: text deltas concatenated, tool-call deltas merged by index,
 * finish reason, the final chunk's usage, `prompt_token_ids` of the first chunk and the per-chunk `token_ids`
 * deltas concatenated (vLLM), so a stream and a plain call of the same request record the same ids.
 */
export class ChatChunkAccumulator implements StreamAccumulator {
  private readonly root: JsonRecord = {};
  private readonly choices = new Map<number, ChatChoiceState>();

  add(chunk: JsonRecord): void {
    copyRootFields(this.root, chunk);
    const promptIds = asIntArray(chunk.prompt_token_ids);
    if (promptIds && this.root.prompt_token_ids === undefined)
      this.root.prompt_token_ids = promptIds;
    for (const value of asArray(chunk.choices)) {
      const choice = asRecord(value);
      if (!choice) continue;
      const index = typeof choice.index === 'number' ? choice.index : 0;
      let state = this.choices.get(index);
      if (!state) {
        state = { toolCalls: new Map() };
        this.choices.set(index, state);
      }
      const delta = asRecord(choice.delta) ?? {};
      state.role ??= asString(delta.role);
      const content = asString(delta.content);
      if (content) state.content = (state.content ?? '') + content;
      const refusal = asString(delta.refusal);
      if (refusal) state.refusal = (state.refusal ?? '') + refusal;
      const finish = asString(choice.finish_reason);
      if (finish) state.finishReason = finish;
      if (choice.stop_reason !== undefined && choice.stop_reason !== null)
        state.stopReason = choice.stop_reason;
      for (const callValue of asArray(delta.tool_calls)) {
        const call = asRecord(callValue);
        if (!call) continue;
        const callIndex = typeof call.index === 'number' ? call.index : state.toolCalls.size;
        let tool = state.toolCalls.get(callIndex);
        if (!tool) {
          tool = { arguments: '' };
          state.toolCalls.set(callIndex, tool);
        }
        tool.id ??= asString(call.id);
        tool.type ??= asString(call.type);
        const fn = asRecord(call.function) ?? {};
        tool.name ??= asString(fn.name);
        tool.arguments += asString(fn.arguments) ?? '';
      }
      const ids = asIntArray(choice.token_ids);
      if (ids) state.tokenIds = append(state.tokenIds, ids);
      const logprobs = asArray(asRecord(choice.logprobs)?.content);
      if (logprobs.length > 0) state.logprobs = append(state.logprobs, logprobs);
    }
  }

  result(): JsonRecord {
    const choices = [...this.choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, state]) => {
        const message: JsonRecord = {
          role: state.role ?? 'assistant',
          content: state.content ?? null,
        };
        if (state.refusal !== undefined) message.refusal = state.refusal;
        if (state.toolCalls.size > 0) {
          message.tool_calls = [...state.toolCalls.entries()]
            .sort(([a], [b]) => a - b)
            .map(([, call]) => ({
              id: call.id,
              type: call.type ?? 'function',
              function: { name: call.name, arguments: call.arguments },
            }));
        }
        const choice: JsonRecord = { index, message, finish_reason: state.finishReason ?? null };
        if (state.stopReason !== undefined) choice.stop_reason = state.stopReason;
        if (state.logprobs) choice.logprobs = { content: state.logprobs };
        if (state.tokenIds) choice.token_ids = state.tokenIds;
        return choice;
      });
    return { ...this.root, object: 'chat.completion', choices };
  }
}

interface CompletionChoiceState {
  text: string;
  finishReason?: string;
  tokenIds?: number[];
  promptTokenIds?: number[];
  tokens?: unknown[];
  tokenLogprobs?: unknown[];
  topLogprobs?: unknown[];
}

/** Legacy completion chunks → a `text_completion` (text, token ids and logprobs concatenated per choice). */
export class CompletionChunkAccumulator implements StreamAccumulator {
  private readonly root: JsonRecord = {};
  private readonly choices = new Map<number, CompletionChoiceState>();

  add(chunk: JsonRecord): void {
    copyRootFields(this.root, chunk);
    for (const value of asArray(chunk.choices)) {
      const choice = asRecord(value);
      if (!choice) continue;
      const index = typeof choice.index === 'number' ? choice.index : 0;
      let state = this.choices.get(index);
      if (!state) {
        state = { text: '' };
        this.choices.set(index, state);
      }
      state.text += asString(choice.text) ?? '';
      const finish = asString(choice.finish_reason);
      if (finish) state.finishReason = finish;
      const promptIds = asIntArray(choice.prompt_token_ids);
      if (promptIds && !state.promptTokenIds) state.promptTokenIds = promptIds;
      const ids = asIntArray(choice.token_ids);
      if (ids) state.tokenIds = append(state.tokenIds, ids);
      const logprobs = asRecord(choice.logprobs);
      if (logprobs) {
        state.tokens = append(state.tokens, asArray(logprobs.tokens));
        state.tokenLogprobs = append(state.tokenLogprobs, asArray(logprobs.token_logprobs));
        state.topLogprobs = append(state.topLogprobs, asArray(logprobs.top_logprobs));
      }
    }
  }

  result(): JsonRecord {
    const choices = [...this.choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, state]) => {
        const choice: JsonRecord = {
          index,
          text: state.text,
          finish_reason: state.finishReason ?? null,
        };
        if (state.tokens) {
          choice.logprobs = {
            tokens: state.tokens,
            token_logprobs: state.tokenLogprobs,
            top_logprobs: state.topLogprobs,
          };
        }
        if (state.promptTokenIds) choice.prompt_token_ids = state.promptTokenIds;
        if (state.tokenIds) choice.token_ids = state.tokenIds;
        return choice;
      });
    return { ...this.root, object: 'text_completion', choices };
  }
}

/**
 * Responses API events → the final `response`: the terminal event (`response.completed`, `.incomplete`,
 * `.failed`) carries it whole; before that, the latest `response` seen plus the output items finished so far.
 */
export class ResponsesEventAccumulator implements StreamAccumulator {
  private response: JsonRecord = {};
  private readonly items = new Map<number, JsonRecord>();
  private terminal = false;

  add(event: JsonRecord): void {
    const response = asRecord(event.response);
    if (response && !this.terminal) {
      this.response = response;
      const type = asString(event.type) ?? '';
      this.terminal = /^response\.(completed|incomplete|failed)$/.test(type);
    }
    if (event.type === 'response.output_item.done') {
      const item = asRecord(event.item);
      if (item && typeof event.output_index === 'number') this.items.set(event.output_index, item);
    }
  }

  result(): JsonRecord {
    if (this.terminal || this.items.size === 0) return this.response;
    const output = [...this.items.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
    return { ...this.response, output };
  }
}
