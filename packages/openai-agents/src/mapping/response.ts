import type { AttributeBag } from '../attribute-bag.js';
import {
  asArray,
  asIntArray,
  asRecord,
  asString,
  isRecord,
  type JsonRecord,
  toJson,
} from '../json.js';
import { GenAI, TokenAttributes } from '../keys.js';
import {
  setCompletion,
  setPromptMessages,
  setRequestIdentity,
  setResponseIdentity,
  setSamplingParameters,
  setTokenIds,
  setUsage,
  type ToolCallRecord,
} from './llm-attributes.js';

/**
 * A `response` span (Responses-API models) as an LLM call, in the chat layout: `_response.instructions` and
 * `_input` (the SDK's input items, or a string) become `gen_ai.prompt.N.*`, the `_response` output items
 * one assistant completion. Returns the completion's tool calls.
 */
export function writeResponseAttributes(
  bag: AttributeBag,
  data: JsonRecord,
  captureContent: boolean,
): ToolCallRecord[] {
  const response = asRecord(data._response) ?? {};
  setRequestIdentity(bag, response.model);
  setSamplingParameters(bag, response);
  setToolDefinitions(bag, asArray(response.tools));
  setPromptMessages(bag, promptMessages(response.instructions, data._input), captureContent);

  if (asString(response.id) === undefined) bag.set(GenAI.RESPONSE_ID, asString(data.response_id));
  setResponseIdentity(bag, response);
  setUsage(bag, response.usage);

  const text: string[] = [];
  const calls: ToolCallRecord[] = [];
  const ids: number[] = [];
  const logprobs: unknown[] = [];
  let hasIds = false;
  for (const item of asArray(response.output).filter(isRecord)) {
    const itemIds = asIntArray(item.token_ids);
    if (itemIds) {
      hasIds = true;
      ids.push(...itemIds);
    }
    if (item.type === 'message') {
      for (const part of asArray(item.content).filter(isRecord)) {
        if (part.type !== 'output_text') continue;
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
  if (asArray(response.output).length > 0 || response.status !== undefined) {
    setCompletion(
      bag,
      0,
      {
        role: 'assistant',
        content: text.length > 0 ? text.join('') : undefined,
        finishReason: finishReason(response, calls.length > 0),
        toolCalls: calls,
      },
      captureContent,
    );
  }
  setTokenIds(bag, response.prompt_token_ids, hasIds ? ids : undefined);
  if (captureContent && logprobs.length > 0)
    bag.setJson(TokenAttributes.LOGPROBS_CONTENT, logprobs);
  return calls;
}

/** Function tools of the response as `gen_ai.request.functions.N.*` (flat Responses shape). */
function setToolDefinitions(bag: AttributeBag, tools: readonly unknown[]): void {
  let index = 0;
  for (const tool of tools.filter(isRecord)) {
    const name = asString(tool.name) ?? asString(asRecord(tool.function)?.name);
    if (name === undefined) continue;
    const prefix = `${GenAI.REQUEST_FUNCTIONS}.${index}`;
    bag.set(`${prefix}.name`, name);
    bag.set(`${prefix}.description`, asString(tool.description));
    bag.setJson(`${prefix}.parameters`, tool.parameters);
    index += 1;
  }
}

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

/**
 * `instructions` + input items as chat messages. Items come in the SDK's protocol shape (`callId`,
 * `function_call_result`) or the wire shape (`call_id`, `function_call_output`); consecutive function calls
 * merge into one assistant turn.
 */
export function promptMessages(instructions: unknown, input: unknown): JsonRecord[] {
  const messages: JsonRecord[] = [];
  if (typeof instructions === 'string' && instructions !== '') {
    messages.push({ role: 'system', content: instructions });
  }
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input });
    return messages;
  }
  for (const item of asArray(input).filter(isRecord)) {
    const type = asString(item.type) ?? 'message';
    const callId = asString(item.call_id) ?? asString(item.callId);
    if (type === 'message') {
      messages.push({ role: asString(item.role), content: contentText(item.content) });
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      const call = {
        id: callId ?? asString(item.id),
        type: 'function',
        function: { name: asString(item.name), arguments: item.arguments ?? item.input },
      };
      const last = messages.at(-1);
      if (last?.role === 'assistant' && Array.isArray(last.tool_calls)) last.tool_calls.push(call);
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (
      type === 'function_call_output' ||
      type === 'function_call_result' ||
      type === 'custom_tool_call_output'
    ) {
      messages.push({ role: 'tool', tool_call_id: callId, content: contentText(item.output) });
    }
  }
  return messages;
}

/** Text parts joined into a string; anything else (images, files) as JSON so nothing is lost. */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (content === undefined || content === null) return undefined;
  const parts = Array.isArray(content) ? content : [content];
  const texts = parts.map((part) => {
    const record = asRecord(part);
    const kind = asString(record?.type);
    const isText = kind === 'input_text' || kind === 'output_text' || kind === 'text';
    return isText ? asString(record?.text) : undefined;
  });
  if (texts.every((t) => t !== undefined)) return texts.join('');
  return toJson(content);
}
