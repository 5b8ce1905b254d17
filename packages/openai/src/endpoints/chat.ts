import type { AttributeBag } from '../attributes/attribute-bag.js';
import { GenAI, SpanNames, TokenAttributes } from '../attributes/keys.js';
import {
  setCommonRequestAttributes,
  setPromptMessage,
  setToolDefinitions,
} from '../attributes/request.js';
import {
  setCompletionToolCalls,
  setResponseIdentity,
  setTokenIds,
  setUsage,
} from '../attributes/response.js';
import { type Endpoint, type ToolCallRecord, withDefaults } from '../endpoint.js';
import { asArray, asRecord, asString, isRecord, type JsonRecord } from '../json.js';
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
    setCommonRequestAttributes(bag, body, 'chat', body.max_tokens ?? body.max_completion_tokens);
    bag.set(GenAI.REQUEST_LOGPROBS, body.logprobs);
    bag.set(GenAI.REQUEST_TOP_LOGPROBS, body.top_logprobs);
    asArray(body.messages).forEach((message, i) => {
      if (isRecord(message)) setPromptMessage(bag, i, message, options.captureContent);
    });
    setToolDefinitions(bag, body);
  },

  responseAttributes(response, options, bag) {
    setResponseIdentity(bag, response);
    setUsage(bag, response.usage);
    let firstCalls: ToolCallRecord[] = [];
    asArray(response.choices).forEach((choiceValue, position) => {
      const choice = asRecord(choiceValue);
      if (!choice) return;
      const index = typeof choice.index === 'number' ? choice.index : position;
      const calls = writeChoice(bag, index, choice, options.captureContent);
      if (position === 0) firstCalls = calls;
    });
    const first = asRecord(asArray(response.choices)[0]);
    setTokenIds(bag, response.prompt_token_ids, responseTokenIds(response, first));
    const logprobs = asRecord(first?.logprobs);
    if (logprobs && options.captureContent) {
      bag.setJson(TokenAttributes.LOGPROBS_CONTENT, logprobs.content);
      bag.setJson(TokenAttributes.LOGPROBS_REFUSAL, logprobs.refusal);
    }
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

function writeChoice(
  bag: AttributeBag,
  index: number,
  choice: JsonRecord,
  captureContent: boolean,
): ToolCallRecord[] {
  const prefix = `${GenAI.COMPLETION}.${index}`;
  bag.set(`${prefix}.finish_reason`, asString(choice.finish_reason));
  const message = asRecord(choice.message);
  if (!message) return [];
  bag.set(`${prefix}.role`, asString(message.role));
  if (captureContent) {
    bag.set(`${prefix}.content`, asString(message.content));
    bag.set(`${prefix}.refusal`, asString(message.refusal));
  }
  const calls: ToolCallRecord[] = [];
  for (const value of asArray(message.tool_calls)) {
    const call = asRecord(value);
    if (!call) continue;
    const fn = asRecord(call.function) ?? asRecord(call.custom) ?? {};
    calls.push({
      id: asString(call.id),
      type: asString(call.type) ?? 'function',
      name: asString(fn.name),
      arguments: asString(fn.arguments) ?? asString(fn.input),
    });
  }
  const legacyCall = asRecord(message.function_call);
  if (calls.length === 0 && legacyCall) {
    calls.push({
      type: 'function',
      name: asString(legacyCall.name),
      arguments: asString(legacyCall.arguments),
    });
  }
  setCompletionToolCalls(bag, index, calls, captureContent);
  return calls;
}
