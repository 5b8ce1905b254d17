import {
  asArray,
  asIntArray,
  asNumber,
  asRecord,
  asString,
  completionAttributes,
  type JsonRecord,
  logprobsAttributes,
  promptAttributes,
  requestAttributes,
  tokenIdAttributes,
} from '@arclight/core';
import { SpanNames } from '../attributes/keys.js';
import { commonRequestParameters, toolDefinitionsAttributes } from '../attributes/request.js';
import { responseMetadataAttributes } from '../attributes/response.js';
import { type Endpoint, withDefaults } from '../endpoint.js';
import type { ResolvedOptions } from '../options.js';
import { CompletionStreamAccumulator } from '../streaming/completion-accumulator.js';

/** Legacy `client.completions.create` → span `openai.completion`. */
export const completionsEndpoint: Endpoint = {
  spanName: SpanNames.COMPLETION,

  augmentBody(body: JsonRecord, options: ResolvedOptions): JsonRecord {
    const extra: JsonRecord = {};
    if (options.requestTokenIds) extra.return_token_ids = true;
    // Legacy `logprobs` is the number of alternatives per token; 0 returns the sampled tokens' logprobs.
    if (options.requestLogprobs !== false) {
      extra.logprobs = typeof options.requestLogprobs === 'number' ? options.requestLogprobs : 0;
    }
    return withDefaults(body, extra);
  },

  requestAttributes(body, options, bag) {
    bag.merge(
      requestAttributes({
        ...commonRequestParameters(body, 'completion', body.max_tokens),
        logprobs: body.logprobs,
      }),
    );
    // The prompt is a string, a list of strings, a token-id list or a list of token-id lists.
    const prompt = body.prompt;
    const prompts =
      Array.isArray(prompt) && prompt.length > 0 && typeof prompt[0] !== 'number'
        ? prompt
        : [prompt];
    const messages = prompts.map((p) =>
      p === undefined || p === null ? undefined : { role: 'user', content: p },
    );
    bag.merge(promptAttributes(messages, options));
    bag.merge(toolDefinitionsAttributes(body));
  },

  responseAttributes(response, options, bag) {
    bag.merge(responseMetadataAttributes(response));
    asArray(response.choices).forEach((choiceValue, position) => {
      const choice = asRecord(choiceValue);
      if (!choice) return;
      const index = typeof choice.index === 'number' ? choice.index : position;
      const completion = {
        finish_reason: asString(choice.finish_reason),
        role: 'assistant',
        content: asString(choice.text),
      };
      bag.merge(completionAttributes(index, completion, options));
    });
    const first = asRecord(asArray(response.choices)[0]);
    // vLLM puts a legacy completion's prompt ids on the choice (one prompt per choice).
    bag.merge(
      tokenIdAttributes({
        prompt_token_ids: asIntArray(first?.prompt_token_ids ?? response.prompt_token_ids),
        response_token_ids: asIntArray(first?.token_ids),
      }),
    );
    const logprobs = asRecord(first?.logprobs);
    if (logprobs && options.captureContent) {
      bag.merge(logprobsAttributes({ content: toChatLogprobs(logprobs) }));
    }
    return [];
  },

  responseFailure: () => undefined,

  createAccumulator: () => new CompletionStreamAccumulator(),
};

/**
 * Converts legacy logprobs (`tokens[]`, `token_logprobs[]`, `top_logprobs[]` of `{token: logprob}` maps)
 * into the chat layout (`[{token, logprob, bytes, top_logprobs: [{token, logprob, bytes}]}]`) that
 * `logprobs.content` carries for chat spans, so readers handle one shape.
 */
export function toChatLogprobs(logprobs: JsonRecord): JsonRecord[] {
  const tokens = asArray(logprobs.tokens);
  const values = asArray(logprobs.token_logprobs);
  const tops = asArray(logprobs.top_logprobs);
  return tokens.map((token, j) => {
    const top = asRecord(tops[j]) ?? {};
    return {
      token: asString(token) ?? String(token),
      logprob: asNumber(values[j]) ?? null,
      bytes: null,
      top_logprobs: Object.entries(top).map(([alt, logprob]) => ({
        token: alt,
        logprob: asNumber(logprob) ?? null,
        bytes: null,
      })),
    };
  });
}
