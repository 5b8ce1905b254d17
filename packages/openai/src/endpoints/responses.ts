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
import { asArray, asIntArray, asRecord, asString, type JsonRecord } from '../json.js';
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
    setCommonRequestAttributes(bag, body, 'chat', body.max_output_tokens);
    bag.set(GenAI.REQUEST_TOP_LOGPROBS, body.top_logprobs);
    promptMessages(body).forEach((message, i) => {
      setPromptMessage(bag, i, message, options.captureContent);
    });
    setToolDefinitions(bag, body);
  },

  responseAttributes(response, options, bag) {
    setResponseIdentity(bag, response);
    setUsage(bag, response.usage);
    const output = asArray(response.output)
      .map(asRecord)
      .filter((x) => x !== undefined);
    const text: string[] = [];
    const logprobs: unknown[] = [];
    const calls: ToolCallRecord[] = [];
    const ids: number[] = [];
    let hasIds = false;
    for (const item of output) {
      const itemIds = asIntArray(item.token_ids);
      if (itemIds) {
        hasIds = true;
        ids.push(...itemIds);
      }
      if (item.type === 'message') {
        for (const part of asArray(item.content).map(asRecord)) {
          if (part?.type !== 'output_text') continue;
          text.push(asString(part.text) ?? '');
          logprobs.push(...asArray(part.logprobs));
        }
      } else if (item.type === 'function_call' || item.type === 'custom_tool_call') {
        calls.push({
          id: asString(item.call_id) ?? asString(item.id),
          type: 'function',
          name: asString(item.name),
          arguments: asString(item.arguments) ?? asString(item.input),
        });
      }
    }
    const prefix = `${GenAI.COMPLETION}.0`;
    bag.set(`${prefix}.role`, 'assistant');
    bag.set(`${prefix}.finish_reason`, finishReason(response, calls.length > 0));
    if (options.captureContent && text.length > 0) bag.set(`${prefix}.content`, text.join(''));
    setCompletionToolCalls(bag, 0, calls, options.captureContent);
    setTokenIds(bag, response.prompt_token_ids, hasIds ? ids : undefined);
    if (options.captureContent && logprobs.length > 0) {
      bag.setJson(TokenAttributes.LOGPROBS_CONTENT, logprobs);
    }
    return calls;
  },

  responseFailure(response) {
    if (response.status !== 'failed') return undefined;
    const error = asRecord(response.error);
    return asString(error?.message) ?? 'response failed';
  },

  createAccumulator: () => new ResponsesStreamAccumulator(),
};

/** Chat-style finish reason of a Responses-API response. */
function finishReason(response: JsonRecord, hasToolCalls: boolean): string | undefined {
  const status = asString(response.status);
  if (status === 'incomplete') {
    const reason = asString(asRecord(response.incomplete_details)?.reason);
    return reason === 'max_output_tokens' ? 'length' : (reason ?? 'incomplete');
  }
  if (status === 'completed') return hasToolCalls ? 'tool_calls' : 'stop';
  return status;
}

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
