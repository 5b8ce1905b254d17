import type { AttributeRecord } from './attribute-bag.js';
import {
  asArray,
  asIntArray,
  asRecord,
  asString,
  isRecord,
  type JsonRecord,
} from './json-readers.js';
import type { GenAIMessage, GenAIWriteOptions } from './messages.js';
import { logprobsAttributes, tokenIdAttributes } from './response.js';
import type { ToolCallRecord } from './tool-calls.js';

/** The output items of a Responses-API response, folded into one chat-style completion. */
export interface ResponsesOutput {
  /** The `output_text` parts joined, or undefined when there are none. */
  text?: string;
  /** `function_call` / `custom_tool_call` items. */
  toolCalls: ToolCallRecord[];
  /** The items' `token_ids` concatenated (vLLM), when any item has them. */
  responseTokenIds?: number[];
  /** The `output_text` parts' logprobs concatenated. */
  logprobs: unknown[];
}

export function readResponsesOutput(response: JsonRecord): ResponsesOutput {
  const text: string[] = [];
  const toolCalls: ToolCallRecord[] = [];
  const logprobs: unknown[] = [];
  let ids: number[] | undefined;
  for (const item of asArray(response.output).filter(isRecord)) {
    const itemIds = asIntArray(item.token_ids);
    if (itemIds) {
      ids ??= [];
      ids.push(...itemIds);
    }
    if (item.type === 'message') {
      for (const part of asArray(item.content).filter(isRecord)) {
        if (part.type !== 'output_text') continue;
        text.push(asString(part.text) ?? '');
        logprobs.push(...asArray(part.logprobs));
      }
    } else if (item.type === 'function_call' || item.type === 'custom_tool_call') {
      toolCalls.push({
        id: asString(item.call_id) ?? asString(item.id),
        type: 'function',
        name: asString(item.name),
        arguments: asString(item.arguments) ?? asString(item.input),
      });
    }
  }
  return {
    text: text.length > 0 ? text.join('') : undefined,
    toolCalls,
    responseTokenIds: ids,
    logprobs,
  };
}

/** The output of a Responses-API response as one assistant completion (`gen_ai.completion.0.*`). */
export function responsesCompletion(response: JsonRecord, output: ResponsesOutput): GenAIMessage {
  return {
    role: 'assistant',
    finish_reason: responsesFinishReason(response, output.toolCalls.length > 0),
    content: output.text,
    tool_calls: output.toolCalls,
  };
}

/**
 * Token ids of a Responses-API call (`prompt_token_ids` of the response, the output items' ids) and, when
 * content is captured, the output text's logprobs as `logprobs.content`.
 */
export function responsesTokenAttributes(
  response: JsonRecord,
  output: ResponsesOutput,
  options: GenAIWriteOptions,
): AttributeRecord {
  const attributes = tokenIdAttributes({
    prompt_token_ids: asIntArray(response.prompt_token_ids),
    response_token_ids: output.responseTokenIds,
  });
  if (options.captureContent && output.logprobs.length > 0) {
    Object.assign(attributes, logprobsAttributes({ content: output.logprobs }, options.encoding));
  }
  return attributes;
}

/** Chat-style finish reason of a Responses-API response. */
export function responsesFinishReason(
  response: JsonRecord,
  hasToolCalls: boolean,
): string | undefined {
  const status = asString(response.status);
  if (status === 'incomplete') {
    const reason = asString(asRecord(response.incomplete_details)?.reason);
    return reason === 'max_output_tokens' ? 'length' : (reason ?? 'incomplete');
  }
  if (status === 'completed') return hasToolCalls ? 'tool_calls' : 'stop';
  return status;
}
