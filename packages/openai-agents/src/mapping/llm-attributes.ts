import type { AttributeBag } from '../attribute-bag.js';
import {
  asArray,
  asIntArray,
  asNumber,
  asRecord,
  asString,
  isRecord,
  type JsonRecord,
} from '../json.js';
import { GEN_AI_SYSTEM_VALUE, GenAI, TokenAttributes } from '../keys.js';

/** One tool call of a completion: written as attributes and as a `tool_call.<name>` child span. */
export interface ToolCallRecord {
  id?: string;
  type?: string;
  name?: string;
  arguments?: string;
}

/** A completion in chat form, whichever API produced it. */
export interface CompletionRecord {
  role?: string;
  content?: string;
  refusal?: string;
  finishReason?: string;
  toolCalls: ToolCallRecord[];
}

/** `gen_ai.system`, `gen_ai.request.type` and the model. */
export function setRequestIdentity(bag: AttributeBag, model: unknown): void {
  bag.set(GenAI.SYSTEM, GEN_AI_SYSTEM_VALUE);
  bag.set(GenAI.REQUEST_TYPE, 'chat');
  bag.set(GenAI.REQUEST_MODEL, asString(model));
}

/** Sampling parameters (`temperature`, `top_p`, penalties, max tokens) from a settings record. */
export function setSamplingParameters(bag: AttributeBag, settings: JsonRecord | undefined): void {
  if (!settings) return;
  bag.set(GenAI.REQUEST_TEMPERATURE, asNumber(settings.temperature));
  bag.set(GenAI.REQUEST_TOP_P, asNumber(settings.top_p));
  bag.set(GenAI.REQUEST_FREQUENCY_PENALTY, asNumber(settings.frequency_penalty));
  bag.set(GenAI.REQUEST_PRESENCE_PENALTY, asNumber(settings.presence_penalty));
  bag.set(
    GenAI.REQUEST_MAX_TOKENS,
    asNumber(settings.max_tokens) ??
      asNumber(settings.max_completion_tokens) ??
      asNumber(settings.max_output_tokens),
  );
}

/** Writes chat messages as `gen_ai.prompt.N.*`. */
export function setPromptMessages(
  bag: AttributeBag,
  messages: readonly JsonRecord[],
  captureContent: boolean,
): void {
  messages.forEach((message, index) => {
    const prefix = `${GenAI.PROMPT}.${index}`;
    bag.set(`${prefix}.role`, asString(message.role));
    if (captureContent) {
      const content = message.content;
      if (typeof content === 'string') bag.set(`${prefix}.content`, content);
      else if (content !== undefined && content !== null) bag.setJson(`${prefix}.content`, content);
    }
    bag.set(`${prefix}.tool_call_id`, asString(message.tool_call_id));
    toolCallsOf(message).forEach((call, j) => {
      bag.set(`${prefix}.tool_calls.${j}.id`, call.id);
      bag.set(`${prefix}.tool_calls.${j}.name`, call.name);
      if (captureContent) bag.set(`${prefix}.tool_calls.${j}.arguments`, call.arguments);
    });
  });
}

/** Writes one completion as `gen_ai.completion.{index}.*`. */
export function setCompletion(
  bag: AttributeBag,
  index: number,
  completion: CompletionRecord,
  captureContent: boolean,
): void {
  const prefix = `${GenAI.COMPLETION}.${index}`;
  bag.set(`${prefix}.role`, completion.role ?? 'assistant');
  bag.set(`${prefix}.finish_reason`, completion.finishReason);
  if (captureContent) {
    bag.set(`${prefix}.content`, completion.content);
    bag.set(`${prefix}.refusal`, completion.refusal);
  }
  completion.toolCalls.forEach((call, j) => {
    bag.set(`${prefix}.tool_calls.${j}.id`, call.id);
    bag.set(`${prefix}.tool_calls.${j}.name`, call.name);
    if (captureContent) bag.set(`${prefix}.tool_calls.${j}.arguments`, call.arguments);
  });
}

/** `gen_ai.response.id|model`; the SDK's placeholder id of streamed completions is not an id. */
export function setResponseIdentity(bag: AttributeBag, response: JsonRecord): void {
  const id = asString(response.id);
  if (id !== undefined && id !== FAKE_ID) bag.set(GenAI.RESPONSE_ID, id);
  if (id === FAKE_ID) bag.set(GenAI.REQUEST_STREAMING, true);
  bag.set(GenAI.RESPONSE_MODEL, asString(response.model));
  bag.set(GenAI.OPENAI_SYSTEM_FINGERPRINT, asString(response.system_fingerprint));
}

/** Placeholder id the SDK gives the completion it rebuilds from a stream (`FAKE_ID`). */
export const FAKE_ID = 'FAKE_ID';

/**
 * Usage in upstream's names. Accepts Chat (`prompt_tokens`/`completion_tokens`), Responses and the SDK's
 * own span usage (`input_tokens`/`output_tokens`). Returns whether anything was written.
 */
export function setUsage(bag: AttributeBag, usageValue: unknown): boolean {
  const usage = asRecord(usageValue);
  if (!usage) return false;
  const prompt = asNumber(usage.prompt_tokens) ?? asNumber(usage.input_tokens);
  const completion = asNumber(usage.completion_tokens) ?? asNumber(usage.output_tokens);
  bag.set(GenAI.USAGE_PROMPT_TOKENS, prompt);
  bag.set(GenAI.USAGE_COMPLETION_TOKENS, completion);
  bag.set(
    GenAI.USAGE_TOTAL_TOKENS,
    asNumber(usage.total_tokens) ??
      (prompt !== undefined && completion !== undefined ? prompt + completion : undefined),
  );
  const outputDetails =
    asRecord(usage.completion_tokens_details) ?? asRecord(usage.output_tokens_details);
  bag.set(GenAI.USAGE_REASONING_TOKENS, asNumber(outputDetails?.reasoning_tokens));
  const inputDetails =
    asRecord(usage.prompt_tokens_details) ?? asRecord(usage.input_tokens_details);
  bag.set(GenAI.USAGE_CACHE_READ_INPUT_TOKENS, asNumber(inputDetails?.cached_tokens));
  return prompt !== undefined || completion !== undefined;
}

/** `prompt_token_ids` / `response_token_ids` as integer arrays, when the server returned them. */
export function setTokenIds(bag: AttributeBag, promptIds: unknown, responseIds: unknown): void {
  const prompt = asIntArray(promptIds);
  if (prompt) bag.set(TokenAttributes.PROMPT_TOKEN_IDS, prompt);
  const response = asIntArray(responseIds);
  if (response) bag.set(TokenAttributes.RESPONSE_TOKEN_IDS, response);
}

/**
 * Tool calls of a chat message: `tool_calls[]` (`function` or `custom`), else the legacy `function_call`.
 */
export function toolCallsOf(message: JsonRecord): ToolCallRecord[] {
  const calls: ToolCallRecord[] = [];
  for (const value of asArray(message.tool_calls)) {
    if (!isRecord(value)) continue;
    const fn = asRecord(value.function) ?? asRecord(value.custom) ?? value;
    calls.push({
      id: asString(value.id),
      type: asString(value.type) ?? 'function',
      name: asString(fn.name),
      arguments: asString(fn.arguments) ?? asString(fn.input),
    });
  }
  const legacy = asRecord(message.function_call);
  if (legacy && calls.length === 0) {
    calls.push({
      type: 'function',
      name: asString(legacy.name),
      arguments: asString(legacy.arguments),
    });
  }
  return calls;
}
