import { AttributeBag, type AttributeEncoding, type AttributeRecord } from './attribute-bag.js';
import { asNumber, asRecord, asString, type JsonRecord } from './json-readers.js';
import { GenAI, TokenAttributes } from './keys.js';
import type { GenAIMessage } from './messages.js';
import { chatToolCalls } from './tool-calls.js';

/** Identity of a response: `gen_ai.response.id|model` and `gen_ai.openai.system_fingerprint`. */
export interface ResponseIdentity {
  id?: string;
  model?: string;
  system_fingerprint?: string;
}

export function responseIdentityAttributes(identity: ResponseIdentity): AttributeRecord {
  const bag = new AttributeBag();
  bag.set(GenAI.RESPONSE_ID, identity.id);
  bag.set(GenAI.RESPONSE_MODEL, identity.model);
  bag.set(GenAI.OPENAI_SYSTEM_FINGERPRINT, identity.system_fingerprint);
  return bag.attributes;
}

/** `id`, `model` and `system_fingerprint` of an OpenAI response. */
export function chatResponseIdentity(response: JsonRecord): ResponseIdentity {
  return {
    id: asString(response.id),
    model: asString(response.model),
    system_fingerprint: asString(response.system_fingerprint),
  };
}

/** Token usage in upstream's names (`gen_ai.usage.*`). */
export interface TokenUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  reasoning_tokens?: number;
  cache_read_input_tokens?: number;
}

/**
 * Usage of a Chat Completions or Responses API response: the Responses API's `input_tokens` /
 * `output_tokens` (and their `*_details`) map onto the chat names.
 */
export function readUsage(value: unknown): TokenUsage | undefined {
  const usage = asRecord(value);
  if (!usage) return undefined;
  const outputDetails =
    asRecord(usage.completion_tokens_details) ?? asRecord(usage.output_tokens_details);
  const inputDetails =
    asRecord(usage.prompt_tokens_details) ?? asRecord(usage.input_tokens_details);
  return {
    prompt_tokens: asNumber(usage.prompt_tokens) ?? asNumber(usage.input_tokens),
    completion_tokens: asNumber(usage.completion_tokens) ?? asNumber(usage.output_tokens),
    total_tokens: asNumber(usage.total_tokens),
    reasoning_tokens: asNumber(outputDetails?.reasoning_tokens),
    cache_read_input_tokens: asNumber(inputDetails?.cached_tokens),
  };
}

export function usageAttributes(usage: TokenUsage): AttributeRecord {
  const bag = new AttributeBag();
  bag.set(GenAI.USAGE_PROMPT_TOKENS, usage.prompt_tokens);
  bag.set(GenAI.USAGE_COMPLETION_TOKENS, usage.completion_tokens);
  bag.set(GenAI.USAGE_TOTAL_TOKENS, usage.total_tokens);
  bag.set(GenAI.USAGE_REASONING_TOKENS, usage.reasoning_tokens);
  bag.set(GenAI.USAGE_CACHE_READ_INPUT_TOKENS, usage.cache_read_input_tokens);
  return bag.attributes;
}

/** Token ids of an LLM call (integer arrays, as the server returned them). */
export interface TokenIds {
  prompt_token_ids?: readonly number[];
  response_token_ids?: readonly number[];
}

/** `prompt_token_ids` / `response_token_ids`, each when present. */
export function tokenIdAttributes(ids: TokenIds): AttributeRecord {
  const bag = new AttributeBag();
  if (ids.prompt_token_ids) bag.set(TokenAttributes.PROMPT_TOKEN_IDS, ids.prompt_token_ids);
  if (ids.response_token_ids) bag.set(TokenAttributes.RESPONSE_TOKEN_IDS, ids.response_token_ids);
  return bag.attributes;
}

/** Logprobs of the first choice in the chat layout (`logprobs.content` entries, `logprobs.refusal`). */
export interface Logprobs {
  content?: unknown;
  refusal?: unknown;
}

/** `logprobs.content` / `logprobs.refusal` as JSON text, each when present. */
export function logprobsAttributes(
  logprobs: Logprobs,
  encoding?: AttributeEncoding,
): AttributeRecord {
  const bag = new AttributeBag(encoding);
  bag.setJson(TokenAttributes.LOGPROBS_CONTENT, logprobs.content);
  bag.setJson(TokenAttributes.LOGPROBS_REFUSAL, logprobs.refusal);
  return bag.attributes;
}

/**
 * One choice of a chat completion: its finish reason, then (when it has a message) the message's role, text
 * content, refusal and tool calls.
 */
export function chatChoiceCompletion(choice: JsonRecord): GenAIMessage {
  const finish_reason = asString(choice.finish_reason);
  const message = asRecord(choice.message);
  if (!message) return { finish_reason };
  return {
    finish_reason,
    role: asString(message.role),
    content: asString(message.content),
    refusal: asString(message.refusal),
    tool_calls: chatToolCalls(message),
  };
}
