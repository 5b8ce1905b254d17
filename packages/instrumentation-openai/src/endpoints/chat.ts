import {
  asArray,
  asIntArray,
  asRecord,
  chatChoiceCompletion,
  completionAttributes,
  type JsonRecord,
  logprobsAttributes,
  promptAttributes,
  requestAttributes,
  type ToolCallRecord,
  tokenIdAttributes,
} from '@arclight/core';
import { SpanNames } from '../attributes/keys.js';
import { commonRequestParameters, toolDefinitionsAttributes } from '../attributes/request.js';
import { responseMetadataAttributes } from '../attributes/response.js';
import { type Endpoint, withDefaults } from '../endpoint.js';
import type { ResolvedOptions } from '../options.js';
import { ChatStreamAccumulator } from '../streaming/chat-accumulator.js';

/** `client.chat.completions.create` → span `openai.chat.completion`. */
export const chatEndpoint: Endpoint = {
  spanName: SpanNames.CHAT,

  augmentBody(body: JsonRecord, options: ResolvedOptions): JsonRecord {
    const extra: JsonRecord = {};
    if (options.requestTokenIds) extra.return_token_ids = true;
    // Only when the caller left logprobs unset: `top_logprobs` without `logprobs: true` is rejected.
    if (options.requestLogprobs !== false && body.logprobs === undefined) {
      extra.logprobs = true;
      if (typeof options.requestLogprobs === 'number') extra.top_logprobs = options.requestLogprobs;
    }
    return withDefaults(body, extra);
  },

  requestAttributes(body, options, bag) {
    const maxTokens = body.max_tokens ?? body.max_completion_tokens;
    bag.merge(
      requestAttributes({
        ...commonRequestParameters(body, 'chat', maxTokens),
        logprobs: body.logprobs,
        top_logprobs: body.top_logprobs,
      }),
    );
    bag.merge(promptAttributes(asArray(body.messages), options));
    bag.merge(toolDefinitionsAttributes(body));
  },

  responseAttributes(response, options, bag) {
    bag.merge(responseMetadataAttributes(response));
    let firstCalls: ToolCallRecord[] = [];
    asArray(response.choices).forEach((choiceValue, position) => {
      const choice = asRecord(choiceValue);
      if (!choice) return;
      const index = typeof choice.index === 'number' ? choice.index : position;
      const completion = chatChoiceCompletion(choice);
      bag.merge(completionAttributes(index, completion, options));
      if (position === 0) firstCalls = [...(completion.tool_calls ?? [])];
    });
    const first = asRecord(asArray(response.choices)[0]);
    bag.merge(
      tokenIdAttributes({
        prompt_token_ids: asIntArray(response.prompt_token_ids),
        response_token_ids: asIntArray(responseTokenIds(response, first)),
      }),
    );
    const logprobs = asRecord(first?.logprobs);
    if (logprobs && options.captureContent) bag.merge(logprobsAttributes(logprobs));
    return firstCalls;
  },

  responseFailure: () => undefined,

  createAccumulator: () => new ChatStreamAccumulator(),
};

/** `choices[0].token_ids` (vLLM), or the legacy/LiteLLM shapes upstream also reads. */
function responseTokenIds(response: JsonRecord, first: JsonRecord | undefined): unknown {
  const legacy = asArray(response.response_token_ids)[0];
  if (legacy !== undefined) return legacy;
  return first?.token_ids ?? asRecord(first?.provider_specific_fields)?.token_ids;
}
