import { asArray, asIntArray, asRecord, asString, type JsonRecord } from '@arclight/core';
import type { StreamAccumulator } from '../endpoint.js';
import { appended } from '../json.js';

interface CompletionChoiceState {
  index: number;
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
 * `prompt_token_ids` from the first chunk that carries them and `token_ids` deltas concatenated (vLLM).
 */
export class CompletionStreamAccumulator implements StreamAccumulator {
  private readonly root: JsonRecord = {};
  private readonly choices = new Map<number, CompletionChoiceState>();

  add(chunkValue: unknown): void {
    const chunk = asRecord(chunkValue);
    if (!chunk) return;
    for (const key of ['id', 'model', 'created', 'system_fingerprint']) {
      if (this.root[key] === undefined && chunk[key] !== undefined && chunk[key] !== null) {
        this.root[key] = chunk[key];
      }
    }
    if (chunk.usage) this.root.usage = chunk.usage;
    const rootPromptIds = asIntArray(chunk.prompt_token_ids);
    if (rootPromptIds && this.root.prompt_token_ids === undefined) {
      this.root.prompt_token_ids = rootPromptIds;
    }
    for (const value of asArray(chunk.choices)) {
      const choice = asRecord(value);
      if (choice) this.addChoice(choice);
    }
  }

  private addChoice(choice: JsonRecord): void {
    const index = typeof choice.index === 'number' ? choice.index : 0;
    let state = this.choices.get(index);
    if (!state) {
      state = { index, text: '' };
      this.choices.set(index, state);
    }
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
    const choices = [...this.choices.values()]
      .sort((a, b) => a.index - b.index)
      .map((state) => {
        const choice: JsonRecord = {
          index: state.index,
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
