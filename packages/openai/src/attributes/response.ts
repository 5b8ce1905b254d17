import type { ToolCallRecord } from '../endpoint.js';
import { asIntArray, asNumber, asRecord, asString, type JsonRecord } from '../json.js';
import type { AttributeBag } from './attribute-bag.js';
import { GenAI, TokenAttributes } from './keys.js';

/** `gen_ai.response.id|model` and `gen_ai.openai.system_fingerprint`. */
export function setResponseIdentity(bag: AttributeBag, response: JsonRecord): void {
  bag.set(GenAI.RESPONSE_ID, asString(response.id));
  bag.set(GenAI.RESPONSE_MODEL, asString(response.model));
  bag.set(GenAI.OPENAI_SYSTEM_FINGERPRINT, asString(response.system_fingerprint));
}

/** Usage in upstream's names; the Responses API's `input_tokens`/`output_tokens` map onto them. */
export function setUsage(bag: AttributeBag, usageValue: unknown): void {
  const usage = asRecord(usageValue);
  if (!usage) return;
  bag.set(GenAI.USAGE_PROMPT_TOKENS, asNumber(usage.prompt_tokens) ?? asNumber(usage.input_tokens));
  bag.set(
    GenAI.USAGE_COMPLETION_TOKENS,
    asNumber(usage.completion_tokens) ?? asNumber(usage.output_tokens),
  );
  bag.set(GenAI.USAGE_TOTAL_TOKENS, asNumber(usage.total_tokens));
  const outputDetails =
    asRecord(usage.completion_tokens_details) ?? asRecord(usage.output_tokens_details);
  bag.set(GenAI.USAGE_REASONING_TOKENS, asNumber(outputDetails?.reasoning_tokens));
  const inputDetails =
    asRecord(usage.prompt_tokens_details) ?? asRecord(usage.input_tokens_details);
  bag.set(GenAI.USAGE_CACHE_READ_INPUT_TOKENS, asNumber(inputDetails?.cached_tokens));
}

/** `prompt_token_ids` / `response_token_ids` as integer-array attributes, when the server returned them. */
export function setTokenIds(
  bag: AttributeBag,
  promptTokenIds: unknown,
  responseTokenIds: unknown,
): void {
  const prompt = asIntArray(promptTokenIds);
  if (prompt) bag.set(TokenAttributes.PROMPT_TOKEN_IDS, prompt);
  const response = asIntArray(responseTokenIds);
  if (response) bag.set(TokenAttributes.RESPONSE_TOKEN_IDS, response);
}

/** Writes `gen_ai.completion.{index}.tool_calls.M.id|name|arguments`. */
export function setCompletionToolCalls(
  bag: AttributeBag,
  index: number,
  calls: readonly ToolCallRecord[],
  captureContent: boolean,
): void {
  calls.forEach((call, j) => {
    const prefix = `${GenAI.COMPLETION}.${index}.tool_calls.${j}`;
    bag.set(`${prefix}.id`, call.id);
    bag.set(`${prefix}.name`, call.name);
    if (captureContent) bag.set(`${prefix}.arguments`, call.arguments);
  });
}
