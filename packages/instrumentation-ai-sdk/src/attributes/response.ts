import {
  type AttributeBag,
  completionAttributes,
  logprobsAttributes,
  responseIdentityAttributes,
  type TokenUsage,
  type ToolCallRecord,
  tokenIdAttributes,
  usageAttributes,
} from '@arclight/core';

/** Everything a model call produced, from a generate result or folded from a stream. */
export interface ModelCallOutcome {
  responseId?: string;
  responseModel?: string;
  /** The provider's finish reason (`stop`, `tool_calls`, …). */
  finishReason?: string;
  text: string;
  toolCalls: ToolCallRecord[];
  usage?: TokenUsage;
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
  bag.merge(responseIdentityAttributes({ id: outcome.responseId, model: outcome.responseModel }));
  const completion = {
    role: 'assistant',
    finish_reason: outcome.finishReason,
    content: outcome.text !== '' || outcome.toolCalls.length === 0 ? outcome.text : undefined,
    tool_calls: outcome.toolCalls,
  };
  bag.merge(completionAttributes(0, completion, { captureContent: captureOutputs }));
  if (outcome.usage) bag.merge(usageAttributes(outcome.usage));
  bag.merge(
    tokenIdAttributes({
      prompt_token_ids: outcome.promptTokenIds,
      response_token_ids: outcome.responseTokenIds,
    }),
  );
  if (captureOutputs && outcome.logprobs) {
    bag.merge(logprobsAttributes({ content: outcome.logprobs }));
  }
}
