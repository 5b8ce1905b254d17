import { asArray, asIntArray, asRecord, asString, type JsonRecord } from '@arclight/core';
import type { StreamAccumulator } from '../endpoint.js';
import { appended } from '../json.js';

interface ToolCallState {
  id?: string;
  type?: string;
  name?: string;
  arguments: string;
}

interface ChoiceState {
  index: number;
  role?: string;
  content?: string;
  refusal?: string;
  finishReason?: string;
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
export class ChatStreamAccumulator implements StreamAccumulator {
  private readonly root: JsonRecord = {};
  private readonly choices = new Map<number, ChoiceState>();

  add(chunkValue: unknown): void {
    const chunk = asRecord(chunkValue);
    if (!chunk) return;
    for (const key of ['id', 'model', 'created', 'system_fingerprint', 'service_tier']) {
      if (this.root[key] === undefined && chunk[key] !== undefined && chunk[key] !== null) {
        this.root[key] = chunk[key];
      }
    }
    if (chunk.usage) this.root.usage = chunk.usage;
    const promptIds = asIntArray(chunk.prompt_token_ids);
    if (promptIds && this.root.prompt_token_ids === undefined)
      this.root.prompt_token_ids = promptIds;
    for (const choiceValue of asArray(chunk.choices)) {
      const choice = asRecord(choiceValue);
      if (choice) this.addChoice(choice);
    }
  }

  private addChoice(choice: JsonRecord): void {
    const index = typeof choice.index === 'number' ? choice.index : 0;
    let state = this.choices.get(index);
    if (!state) {
      state = { index, toolCalls: new Map() };
      this.choices.set(index, state);
    }
    const delta = asRecord(choice.delta) ?? {};
    state.role ??= asString(delta.role);
    // Content stays null until text arrives (servers open with `content: ''`, even before tool calls).
    const content = asString(delta.content);
    if (content) state.content = (state.content ?? '') + content;
    const refusal = asString(delta.refusal);
    if (refusal !== undefined) state.refusal = (state.refusal ?? '') + refusal;
    const finish = asString(choice.finish_reason);
    if (finish) state.finishReason = finish;
    const fnDelta = asRecord(delta.function_call);
    if (fnDelta) {
      state.functionCall ??= { arguments: '' };
      state.functionCall.name ??= asString(fnDelta.name);
      state.functionCall.arguments += asString(fnDelta.arguments) ?? '';
    }
    for (const callValue of asArray(delta.tool_calls)) this.addToolCall(state, callValue);
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

  private addToolCall(state: ChoiceState, callValue: unknown): void {
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

  result(): JsonRecord {
    const choices = [...this.choices.values()]
      .sort((a, b) => a.index - b.index)
      .map((state) => {
        const message: JsonRecord = {
          role: state.role ?? 'assistant',
          content: state.content ?? null,
        };
        if (state.refusal !== undefined) message.refusal = state.refusal;
        if (state.toolCalls.size > 0) {
          message.tool_calls = [...state.toolCalls.entries()]
            .sort(([a], [b]) => a - b)
            .map(([, tool]) => ({
              id: tool.id,
              type: tool.type ?? 'function',
              function: { name: tool.name, arguments: tool.arguments },
            }));
        }
        if (state.functionCall) message.function_call = state.functionCall;
        const choice: JsonRecord = {
          index: state.index,
          message,
          finish_reason: state.finishReason ?? null,
          logprobs:
            state.logprobsContent || state.logprobsRefusal
              ? { content: state.logprobsContent ?? null, refusal: state.logprobsRefusal ?? null }
              : null,
        };
        if (state.tokenIds) choice.token_ids = state.tokenIds;
        return choice;
      });
    return { ...this.root, object: 'chat.completion', choices };
  }
}
