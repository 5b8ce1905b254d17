import {
  asArray,
  asRecord,
  asString,
  completionAttributes,
  type JsonRecord,
  promptAttributes,
  readResponsesOutput,
  requestAttributes,
  responsesCompletion,
  responsesTokenAttributes,
} from '@arclight/core';
import { SpanNames } from '../attributes/keys.js';
import { commonRequestParameters, toolDefinitionsAttributes } from '../attributes/request.js';
import { responseMetadataAttributes } from '../attributes/response.js';
import { type Endpoint, withDefaults } from '../endpoint.js';
import type { ResolvedOptions } from '../options.js';
import { ResponsesStreamAccumulator } from '../streaming/responses-accumulator.js';

const LOGPROBS_INCLUDE = 'message.output_text.logprobs';

/**
 * `client.responses.create` → span `openai.responses.create`, written in the chat layout: `instructions`
 * and `input` become `gen_ai.prompt.N.*` (function calls / outputs as assistant tool calls / tool
 * messages), and the output items one assistant completion `gen_ai.completion.0.*`.
 */
export const responsesEndpoint: Endpoint = {
  spanName: SpanNames.RESPONSES,

  augmentBody(body: JsonRecord, options: ResolvedOptions): JsonRecord {
    const extra: JsonRecord = {};
    if (options.requestTokenIds) extra.return_token_ids = true;
    let out = withDefaults(body, extra);
    if (options.requestLogprobs !== false) {
      const include = asArray(body.include);
      if (!include.includes(LOGPROBS_INCLUDE))
        out = { ...out, include: [...include, LOGPROBS_INCLUDE] };
      if (typeof options.requestLogprobs === 'number') {
        out = withDefaults(out, { top_logprobs: options.requestLogprobs });
      }
    }
    return out;
  },

  requestAttributes(body, options, bag) {
    bag.merge(
      requestAttributes({
        ...commonRequestParameters(body, 'chat', body.max_output_tokens),
        top_logprobs: body.top_logprobs,
      }),
    );
    bag.merge(promptAttributes(promptMessages(body), options));
    bag.merge(toolDefinitionsAttributes(body));
  },

  responseAttributes(response, options, bag) {
    bag.merge(responseMetadataAttributes(response));
    const output = readResponsesOutput(response);
    bag.merge(completionAttributes(0, responsesCompletion(response, output), options));
    bag.merge(responsesTokenAttributes(response, output, options));
    return output.toolCalls;
  },

  responseFailure(response) {
    if (response.status !== 'failed') return undefined;
    const error = asRecord(response.error);
    return asString(error?.message) ?? 'response failed';
  },

  createAccumulator: () => new ResponsesStreamAccumulator(),
};

/** `instructions` + `input` as chat messages (consecutive function calls merge into one assistant turn). */
function promptMessages(body: JsonRecord): JsonRecord[] {
  const messages: JsonRecord[] = [];
  if (typeof body.instructions === 'string') {
    messages.push({ role: 'system', content: body.instructions });
  }
  if (typeof body.input === 'string') {
    messages.push({ role: 'user', content: body.input });
    return messages;
  }
  for (const value of asArray(body.input)) {
    const item = asRecord(value);
    if (!item) continue;
    const type = asString(item.type) ?? 'message';
    if (type === 'message') {
      messages.push({ role: item.role, content: item.content });
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      const call = {
        id: asString(item.call_id) ?? asString(item.id),
        function: { name: item.name, arguments: item.arguments ?? item.input },
      };
      const last = messages.at(-1);
      if (last?.role === 'assistant' && Array.isArray(last.tool_calls)) last.tool_calls.push(call);
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      messages.push({ role: 'tool', tool_call_id: item.call_id, content: item.output });
    }
  }
  return messages;
}
