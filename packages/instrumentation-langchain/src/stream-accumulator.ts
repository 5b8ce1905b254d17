import { asArray, asNumber, asRecord, asString, type JsonRecord } from '@arclight/core';
import { nonEmptyIntArray } from './json.js';

/**
 * What the raw chunks of one streamed chat completion carried, collected from `handleLLMNewToken`
 * (`ChatOpenAI` puts each raw chunk under `additional_kwargs.__raw_response` when created with
 * `__includeRawResponse: true`). vLLM sends `prompt_token_ids` on the first chunk and each choice's delta
 * `token_ids` on every chunk.
 */
export class StreamAccumulator {
  chunks = 0;
  id?: string;
  model?: string;
  systemFingerprint?: string;
  promptTokenIds?: number[];
  usage?: JsonRecord;
  private readonly tokenIds = new Map<number, number[]>();
  private readonly finishReasons = new Map<number, string>();

  /** Records one generation chunk (`fields.chunk` of `handleLLMNewToken`). */
  add(chunk: unknown): void {
    this.chunks += 1;
    const message = asRecord(asRecord(chunk)?.message);
    const raw = asRecord(asRecord(message?.additional_kwargs)?.__raw_response);
    if (!raw) return;
    this.id ??= asString(raw.id);
    this.model ??= asString(raw.model);
    this.systemFingerprint ??= asString(raw.system_fingerprint);
    this.promptTokenIds ??= nonEmptyIntArray(raw.prompt_token_ids);
    const usage = asRecord(raw.usage);
    if (usage) this.usage = usage;
    for (const value of asArray(raw.choices)) {
      const choice = asRecord(value);
      if (!choice) continue;
      const index = asNumber(choice.index) ?? 0;
      const ids = asArray(choice.token_ids).filter((v): v is number => Number.isInteger(v));
      if (ids.length > 0) this.tokenIds.set(index, [...(this.tokenIds.get(index) ?? []), ...ids]);
      const finish = asString(choice.finish_reason);
      if (finish) this.finishReasons.set(index, finish);
    }
  }

  responseTokenIds(index = 0): number[] | undefined {
    const ids = this.tokenIds.get(index);
    return ids && ids.length > 0 ? ids : undefined;
  }

  finishReason(index: number): string | undefined {
    return this.finishReasons.get(index);
  }
}
