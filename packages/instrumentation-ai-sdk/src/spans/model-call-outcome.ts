import {
  asArray,
  asIntArray,
  asNumber,
  asRecord,
  asString,
  type JsonRecord,
  type TokenUsage,
  type ToolCallRecord,
} from '@arclight/core';
import type { ModelCallOutcome } from '../attributes/response.js';
import { asText, parseJsonRecord } from '../json.js';

/** Reads a provider's generate result (`LanguageModelV4GenerateResult`, normalized + raw body). */
export function outcomeFromGenerateResult(result: JsonRecord): ModelCallOutcome {
  const outcome: ModelCallOutcome = { text: '', toolCalls: [] };
  for (const value of asArray(result.content)) {
    const part = asRecord(value);
    if (part) addContentPart(outcome, part);
  }
  outcome.finishReason = finishReasonOf(result.finishReason);
  outcome.usage = usageOf(result.usage);
  const response = asRecord(result.response);
  outcome.responseId = asString(response?.id);
  outcome.responseModel = asString(response?.modelId);
  const body = parseJsonRecord(response?.body);
  if (body) readResponseBody(outcome, body);
  readProviderMetadata(outcome, result.providerMetadata);
  return outcome;
}

/** Adds one normalized content part (text, tool call). */
export function addContentPart(outcome: ModelCallOutcome, part: JsonRecord): void {
  if (part.type === 'text') outcome.text += asString(part.text) ?? '';
  else if (part.type === 'tool-call') outcome.toolCalls.push(toolCallOf(part));
}

export function toolCallOf(part: JsonRecord): ToolCallRecord {
  return {
    id: asString(part.toolCallId),
    name: asString(part.toolName),
    arguments: asText(part.input),
  };
}

/** The provider's own finish reason, else the AI SDK's unified one in OpenAI's spelling. */
export function finishReasonOf(value: unknown): string | undefined {
  if (typeof value === 'string') return openaiFinishReason(value);
  const record = asRecord(value);
  if (!record) return undefined;
  return asString(record.raw) ?? openaiFinishReason(asString(record.unified));
}

function openaiFinishReason(unified: string | undefined): string | undefined {
  if (unified === 'tool-calls') return 'tool_calls';
  if (unified === 'content-filter') return 'content_filter';
  return unified;
}

/** `LanguageModelV4Usage` (`inputTokens.total`, …) or the flat `LanguageModelUsage`. */
export function usageOf(value: unknown): TokenUsage | undefined {
  const usage = asRecord(value);
  if (!usage) return undefined;
  const input = asRecord(usage.inputTokens);
  const output = asRecord(usage.outputTokens);
  const prompt = asNumber(input?.total) ?? asNumber(usage.inputTokens);
  const completion = asNumber(output?.total) ?? asNumber(usage.outputTokens);
  const total =
    asNumber(usage.totalTokens) ??
    (prompt !== undefined && completion !== undefined ? prompt + completion : undefined);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: total,
    reasoning_tokens: asNumber(output?.reasoning),
    cache_read_input_tokens: asNumber(input?.cacheRead),
  };
}

/**
 * Token ids and logprobs from a raw response body: vLLM chat (`prompt_token_ids`, `choices[0].token_ids`),
 * Agent Lightning's old `response_token_ids[0]`, LiteLLM's `provider_specific_fields.token_ids`, and a
 * Responses-API body (`output[i].token_ids` concatenated).
 */
export function readResponseBody(outcome: ModelCallOutcome, body: JsonRecord): void {
  const first = asRecord(asArray(body.choices)[0]);
  outcome.promptTokenIds ??= asIntArray(body.prompt_token_ids);
  outcome.responseTokenIds ??=
    asIntArray(asArray(body.response_token_ids)[0]) ??
    asIntArray(first?.token_ids) ??
    asIntArray(asRecord(first?.provider_specific_fields)?.token_ids) ??
    outputItemTokenIds(body.output);
  const logprobs = asRecord(first?.logprobs)?.content;
  if (Array.isArray(logprobs)) outcome.logprobs ??= logprobs.slice();
}

function outputItemTokenIds(output: unknown): number[] | undefined {
  const items = asArray(output);
  if (items.length === 0) return undefined;
  const ids: number[] = [];
  for (const item of items) {
    const itemIds = asIntArray(asRecord(item)?.token_ids);
    if (!itemIds) return undefined;
    ids.push(...itemIds);
  }
  return ids;
}

/** Token ids a provider's metadata extractor put into `providerMetadata.<provider>`. */
export function readProviderMetadata(outcome: ModelCallOutcome, metadata: unknown): void {
  for (const value of Object.values(asRecord(metadata) ?? {})) {
    const entry = asRecord(value);
    if (!entry) continue;
    outcome.promptTokenIds ??=
      asIntArray(entry.prompt_token_ids) ?? asIntArray(entry.promptTokenIds);
    outcome.responseTokenIds ??=
      asIntArray(entry.response_token_ids) ??
      asIntArray(entry.responseTokenIds) ??
      asIntArray(entry.token_ids);
  }
}
