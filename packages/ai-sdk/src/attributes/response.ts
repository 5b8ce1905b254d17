import type { AttributeBag } from './attribute-bag.js';
import { GenAI, TokenAttributes } from './keys.js';

/** A tool call the model asked for. */
export interface ToolCallRecord {
  id?: string;
  name?: string;
  /** The arguments as the model wrote them (JSON text). */
  arguments?: string;
}

export interface UsageRecord {
  prompt?: number;
  completion?: number;
  total?: number;
  reasoning?: number;
  cacheRead?: number;
}

/** Everything a model call produced, from a generate result or folded from a stream. */
export interface ModelCallOutcome {
  responseId?: string;
  responseModel?: string;
  /** The provider's finish reason (`stop`, `tool_calls`, …). */
  finishReason?: string;
  text: string;
  toolCalls: ToolCallRecord[];
  usage?: UsageRecord;
  promptTokenIds?: number[];
  responseTokenIds?: number[];
  /** `choices[0].logprobs.content` entries. */
  logprobs?: unknown[];
}

/** `gen_ai.response.*`, `gen_ai.completion.0.*`, `gen_ai.usage.*` and the token ids of a model call. */
export function setResponseAttributes(
  bag: AttributeBag,
  outcome: ModelCallOutcome,
  captureOutputs: boolean,
): void {
  bag.set(GenAI.RESPONSE_ID, outcome.responseId);
  bag.set(GenAI.RESPONSE_MODEL, outcome.responseModel);
  const prefix = `${GenAI.COMPLETION}.0`;
  bag.set(`${prefix}.role`, 'assistant');
  bag.set(`${prefix}.finish_reason`, outcome.finishReason);
  if (captureOutputs && (outcome.text !== '' || outcome.toolCalls.length === 0)) {
    bag.set(`${prefix}.content`, outcome.text);
  }
  outcome.toolCalls.forEach((call, j) => {
    bag.set(`${prefix}.tool_calls.${j}.id`, call.id);
    bag.set(`${prefix}.tool_calls.${j}.name`, call.name);
    if (captureOutputs) bag.set(`${prefix}.tool_calls.${j}.arguments`, call.arguments);
  });
  const usage = outcome.usage;
  if (usage) {
    bag.set(GenAI.USAGE_PROMPT_TOKENS, usage.prompt);
    bag.set(GenAI.USAGE_COMPLETION_TOKENS, usage.completion);
    bag.set(GenAI.USAGE_TOTAL_TOKENS, usage.total);
    bag.set(GenAI.USAGE_REASONING_TOKENS, usage.reasoning);
    bag.set(GenAI.USAGE_CACHE_READ_INPUT_TOKENS, usage.cacheRead);
  }
  if (outcome.promptTokenIds) bag.set(TokenAttributes.PROMPT_TOKEN_IDS, outcome.promptTokenIds);
  if (outcome.responseTokenIds) {
    bag.set(TokenAttributes.RESPONSE_TOKEN_IDS, outcome.responseTokenIds);
  }
  if (captureOutputs && outcome.logprobs) {
    bag.setJson(TokenAttributes.LOGPROBS_CONTENT, outcome.logprobs);
  }
}
