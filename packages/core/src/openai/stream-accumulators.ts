import {
  asArray,
  asIntArray,
  asNumber,
  asRecord,
  asString,
  type JsonRecord,
} from '../genai/json-readers.js';

/**
 * Folds the chunks (or events) of an OpenAI stream into the object the same call without `stream` returns.
 * Used by the SDK instrumentation (chunks as the SDK parsed them) and the gateway (the JSON of SSE events).
 */
export interface StreamAccumulator {
  add(chunk: unknown): void;
  /** The response assembled so far (complete once the stream finished). */
  result(): JsonRecord;
}

/** Appends `items` to `list` in place (or starts a new list). */
function appended<T>(list: T[] | undefined, items: readonly T[]): T[] {
  if (!list) return items.slice();
  list.push(...items);
  return list;
}

/** Copies the first non-null value of each root field, and the latest `usage` (sent on the final chunk). */
function copyRootFields(root: JsonRecord, chunk: JsonRecord, keys: readonly string[]): void {
  for (const key of keys) {
    if (root[key] === undefined && chunk[key] !== undefined && chunk[key] !== null) {
      root[key] = chunk[key];
    }
  }
  if (chunk.usage) root.usage = chunk.usage;
  const promptIds = asIntArray(chunk.prompt_token_ids);
  if (promptIds && root.prompt_token_ids === undefined) root.prompt_token_ids = promptIds;
}

function byIndex<S>(choices: Map<number, S>): Array<[number, S]> {
  return [...choices.entries()].sort(([a], [b]) => a - b);
}

/**
 * The chunks of the choice-based APIs (chat, legacy completions): root fields copied once, `usage` and
 * `prompt_token_ids` taken when they come, each choice folded into its own state by index.
 */
abstract class ChoiceStreamAccumulator<S> implements StreamAccumulator {
  protected readonly root: JsonRecord = {};
  protected readonly choices = new Map<number, S>();

  constructor(private readonly rootKeys: readonly string[]) {}

  add(chunkValue: unknown): void {
    const chunk = asRecord(chunkValue);
    if (!chunk) return;
    copyRootFields(this.root, chunk, this.rootKeys);
    for (const value of asArray(chunk.choices)) {
      const choice = asRecord(value);
      if (!choice) continue;
      const index = typeof choice.index === 'number' ? choice.index : 0;
      let state = this.choices.get(index);
      if (!state) {
        state = this.newChoice();
        this.choices.set(index, state);
      }
      this.addChoice(state, choice);
    }
  }

  protected abstract newChoice(): S;
  protected abstract addChoice(state: S, choice: JsonRecord): void;
  abstract result(): JsonRecord;
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
  /** vLLM's `stop_reason` (the stop string or token id that ended the choice). */
  stopReason?: unknown;
  functionCall?: { name?: string; arguments: string };
  toolCalls: Map<number, ToolCallState>;
  tokenIds?: number[];
  logprobsContent?: unknown[];
  logprobsRefusal?: unknown[];
}

/**
 * Assembles `ChatCompletionChunk`s into the `ChatCompletion` a non-streaming call returns: text and refusal
 * deltas concatenated, tool-call deltas merged by index, the finish reason, the usage of the final chunk,
 * `prompt_token_ids` from the first chunk and the per-chunk `token_ids` deltas concatenated (vLLM), so both
 * paths produce identical span attributes.
 */
export class ChatStreamAccumulator extends ChoiceStreamAccumulator<ChatChoiceState> {
  constructor() {
    super(['id', 'model', 'created', 'system_fingerprint', 'service_tier']);
  }

  protected newChoice(): ChatChoiceState {
    return { toolCalls: new Map() };
  }

  protected addChoice(state: ChatChoiceState, choice: JsonRecord): void {
    const delta = asRecord(choice.delta) ?? {};
    state.role ??= asString(delta.role);
    // Content stays null until text arrives (servers open with `content: ''`, even before tool calls).
    const content = asString(delta.content);
    if (content) state.content = (state.content ?? '') + content;
    const refusal = asString(delta.refusal);
    if (refusal !== undefined) state.refusal = (state.refusal ?? '') + refusal;
    const finish = asString(choice.finish_reason);
    if (finish) state.finishReason = finish;
    if (choice.stop_reason !== undefined && choice.stop_reason !== null)
      state.stopReason = choice.stop_reason;
    const fnDelta = asRecord(delta.function_call);
    if (fnDelta) {
      state.functionCall ??= { arguments: '' };
      state.functionCall.name ??= asString(fnDelta.name);
      state.functionCall.arguments += asString(fnDelta.arguments) ?? '';
    }
    for (const callValue of asArray(delta.tool_calls)) addToolCall(state, callValue);
    const ids = asIntArray(choice.token_ids);
    if (ids) state.tokenIds = appended(state.tokenIds, ids);
    const logprobs = asRecord(choice.logprobs);
    if (logprobs) {
      const lpContent = asArray(logprobs.content);
      if (lpContent.length > 0) state.logprobsContent = appended(state.logprobsContent, lpContent);
      const lpRefusal = asArray(logprobs.refusal);
      if (lpRefusal.length > 0) state.logprobsRefusal = appended(state.logprobsRefusal, lpRefusal);
    }
  }

  result(): JsonRecord {
    const choices = byIndex(this.choices).map(([index, state]) => {
      const message: JsonRecord = {
        role: state.role ?? 'assistant',
        content: state.content ?? null,
      };
      if (state.refusal !== undefined) message.refusal = state.refusal;
      if (state.toolCalls.size > 0) {
        message.tool_calls = byIndex(state.toolCalls).map(([, tool]) => ({
          id: tool.id,
          type: tool.type ?? 'function',
          function: { name: tool.name, arguments: tool.arguments },
        }));
      }
      if (state.functionCall) message.function_call = state.functionCall;
      const choice: JsonRecord = {
        index,
        message,
        finish_reason: state.finishReason ?? null,
        logprobs:
          state.logprobsContent || state.logprobsRefusal
            ? { content: state.logprobsContent ?? null, refusal: state.logprobsRefusal ?? null }
            : null,
      };
      if (state.stopReason !== undefined) choice.stop_reason = state.stopReason;
      if (state.tokenIds) choice.token_ids = state.tokenIds;
      return choice;
    });
    return { ...this.root, object: 'chat.completion', choices };
  }
}

function addToolCall(state: ChatChoiceState, callValue: unknown): void {
  const call = asRecord(callValue);
  if (!call) return;
  const index = typeof call.index === 'number' ? call.index : state.toolCalls.size;
  let tool = state.toolCalls.get(index);
  if (!tool) {
    tool = { arguments: '' };
    state.toolCalls.set(index, tool);
  }
  tool.id ??= asString(call.id);
  tool.type ??= asString(call.type);
  const fn = asRecord(call.function) ?? {};
  tool.name ??= asString(fn.name);
  tool.arguments += asString(fn.arguments) ?? '';
}

interface CompletionChoiceState {
  text: string;
  finishReason?: string;
  tokenIds?: number[];
  promptTokenIds?: number[];
  logprobs?: {
    tokens: unknown[];
    token_logprobs: unknown[];
    top_logprobs: unknown[];
    text_offset: unknown[];
  };
}

/**
 * Assembles legacy `Completion` stream chunks: text concatenated per choice, finish reason, usage,
 * `prompt_token_ids` from the first chunk that carries them (vLLM puts them on the choice), `token_ids` deltas
 * and logprobs concatenated.
 */
export class CompletionStreamAccumulator extends ChoiceStreamAccumulator<CompletionChoiceState> {
  constructor() {
    super(['id', 'model', 'created', 'system_fingerprint']);
  }

  protected newChoice(): CompletionChoiceState {
    return { text: '' };
  }

  protected addChoice(state: CompletionChoiceState, choice: JsonRecord): void {
    state.text += asString(choice.text) ?? '';
    const finish = asString(choice.finish_reason);
    if (finish) state.finishReason = finish;
    const ids = asIntArray(choice.token_ids);
    if (ids) state.tokenIds = appended(state.tokenIds, ids);
    const promptIds = asIntArray(choice.prompt_token_ids);
    if (promptIds && !state.promptTokenIds) state.promptTokenIds = promptIds;
    const logprobs = asRecord(choice.logprobs);
    if (logprobs) {
      state.logprobs ??= { tokens: [], token_logprobs: [], top_logprobs: [], text_offset: [] };
      state.logprobs.tokens.push(...asArray(logprobs.tokens));
      state.logprobs.token_logprobs.push(...asArray(logprobs.token_logprobs));
      state.logprobs.top_logprobs.push(...asArray(logprobs.top_logprobs));
      state.logprobs.text_offset.push(...asArray(logprobs.text_offset));
    }
  }

  result(): JsonRecord {
    const choices = byIndex(this.choices).map(([index, state]) => {
      const choice: JsonRecord = {
        index,
        text: state.text,
        finish_reason: state.finishReason ?? null,
        logprobs: state.logprobs ?? null,
      };
      if (state.tokenIds) choice.token_ids = state.tokenIds;
      if (state.promptTokenIds) choice.prompt_token_ids = state.promptTokenIds;
      return choice;
    });
    return { ...this.root, object: 'text_completion', choices };
  }
}

interface ItemState {
  item: JsonRecord;
  /** Set once `response.output_item.done` delivered the finished item. */
  done: boolean;
  text: string;
  arguments: string;
  logprobs: unknown[];
  tokenIds?: number[];
}

const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * Folds Responses-API stream events. The final `response.completed|incomplete|failed` event carries the
 * whole response (including the fixture/vLLM token ids), which is then used as is; until it arrives, the
 * text / argument / `token_ids` deltas are collected so an abandoned stream still yields what arrived.
 */
export class ResponsesStreamAccumulator implements StreamAccumulator {
  private snapshot: JsonRecord | undefined;
  private final: JsonRecord | undefined;
  private readonly items = new Map<number, ItemState>();

  add(eventValue: unknown): void {
    const event = asRecord(eventValue);
    if (!event) return;
    const type = asString(event.type) ?? '';
    const response = asRecord(event.response);
    if (response) {
      if (FINAL_EVENTS.has(type)) this.final = response;
      else this.snapshot = response;
      return;
    }
    const outputIndex = asNumber(event.output_index);
    if (outputIndex === undefined) return;
    const item = asRecord(event.item);
    if (type === 'response.output_item.added' && item) {
      this.items.set(outputIndex, { item, done: false, text: '', arguments: '', logprobs: [] });
      return;
    }
    const state = this.items.get(outputIndex);
    if (type === 'response.output_item.done' && item) {
      // A done item whose `added` event was missed still counts.
      if (state) {
        state.item = item;
        state.done = true;
      } else {
        this.items.set(outputIndex, { item, done: true, text: '', arguments: '', logprobs: [] });
      }
    } else if (!state) {
      return;
    } else if (type === 'response.output_text.delta') {
      state.text += asString(event.delta) ?? '';
      state.logprobs.push(...asArray(event.logprobs));
      addIds(state, event.token_ids);
    } else if (type === 'response.function_call_arguments.delta') {
      state.arguments += asString(event.delta) ?? '';
      addIds(state, event.token_ids);
    }
  }

  result(): JsonRecord {
    if (this.final) return this.final;
    const output = byIndex(this.items).map(([, state]) =>
      state.done ? state.item : partialItem(state),
    );
    return { ...this.snapshot, status: 'in_progress', output };
  }
}

function addIds(state: ItemState, value: unknown): void {
  const ids = asIntArray(value);
  if (ids) state.tokenIds = appended(state.tokenIds, ids);
}

function partialItem(state: ItemState): JsonRecord {
  const item: JsonRecord = { ...state.item };
  if (item.type === 'message') {
    item.content = [{ type: 'output_text', text: state.text, logprobs: state.logprobs }];
  } else if (item.type === 'function_call') {
    item.arguments = state.arguments;
  }
  if (state.tokenIds) item.token_ids = state.tokenIds;
  return item;
}
