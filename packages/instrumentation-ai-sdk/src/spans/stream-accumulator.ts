import { asArray, asIntArray, asRecord, asString, isRecord, type JsonRecord } from '@arclight/core';
import type { ModelCallOutcome } from '../attributes/response.js';
import {
  finishReasonOf,
  readProviderMetadata,
  readResponseBody,
  toolCallOf,
  usageOf,
} from './model-call-outcome.js';

/**
 * Folds a provider stream (`LanguageModelV4StreamPart`s) into the outcome a generate call would have had.
 * Token ids come from raw chunks (`{type: 'raw'}`, sent when the call has `includeRawChunks`): the
 * first chunk's `prompt_token_ids` and the `choices[0].token_ids` deltas concatenated — which equal the ids
 * of the same request made without streaming. A Responses-API stream ends with the whole response
 * (`response.completed` / `response.incomplete`), whose output items carry the token ids.
 */
export class StreamAccumulator {
  readonly outcome: ModelCallOutcome = { text: '', toolCalls: [] };
  /** The first `error` part, if the stream carried one. */
  error: unknown;
  private responseIds: number[] | undefined;
  private logprobs: unknown[] | undefined;

  add(part: unknown): void {
    if (!isRecord(part)) return;
    const outcome = this.outcome;
    switch (part.type) {
      case 'text-delta':
        outcome.text += asString(part.delta) ?? '';
        break;
      case 'tool-call':
        outcome.toolCalls.push(toolCallOf(part));
        break;
      case 'response-metadata':
        outcome.responseId ??= asString(part.id);
        outcome.responseModel ??= asString(part.modelId);
        break;
      case 'finish':
        outcome.finishReason = finishReasonOf(part.finishReason);
        outcome.usage = usageOf(part.usage);
        readProviderMetadata(outcome, part.providerMetadata);
        break;
      case 'raw':
        this.addRawChunk(part.rawValue);
        break;
      case 'error':
        if (this.error === undefined) this.error = part.error ?? new Error('stream error');
        break;
    }
  }

  /** The outcome, with the token ids and logprobs gathered from raw chunks. */
  finish(): ModelCallOutcome {
    this.outcome.responseTokenIds ??= this.responseIds;
    if (this.logprobs) this.outcome.logprobs ??= this.logprobs;
    return this.outcome;
  }

  private addRawChunk(value: unknown): void {
    const chunk = asRecord(value);
    if (!chunk) return;
    if (chunk.type === 'response.completed' || chunk.type === 'response.incomplete') {
      const response = asRecord(chunk.response);
      if (response) readResponseBody(this.outcome, response);
      return;
    }
    this.outcome.promptTokenIds ??= asIntArray(chunk.prompt_token_ids);
    asArray(chunk.choices).forEach((choiceValue, position) => {
      const choice = asRecord(choiceValue);
      if (!choice || (choice.index ?? position) !== 0) return;
      this.addChoiceDelta(choice);
    });
  }

  private addChoiceDelta(choice: JsonRecord): void {
    const ids = asIntArray(choice.token_ids);
    if (ids) {
      this.responseIds ??= [];
      this.responseIds.push(...ids);
    }
    const logprobs = asRecord(choice.logprobs)?.content;
    if (Array.isArray(logprobs)) {
      this.logprobs ??= [];
      this.logprobs.push(...logprobs);
    }
  }
}
