import {
  type AttributeBag,
  asArray,
  asRecord,
  asString,
  completionAttributes,
  GenAI,
  isRecord,
  type JsonRecord,
  promptAttributes,
  readResponsesOutput,
  readToolDefinitions,
  responsesCompletion,
  responsesTokenAttributes,
  type ToolCallRecord,
  toolDefinitionAttributes,
} from '@arclight/core';
import { safeJson } from '@arclight/instrumentation';
import { AGENTS_ENCODING } from '../attribute-bag.js';
import {
  modelRequestAttributes,
  setResponseIdentity,
  setUsage,
  writeOptions,
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
  const options = writeOptions(captureContent);
  bag.merge(modelRequestAttributes(response.model, response));
  bag.merge(
    toolDefinitionAttributes(readToolDefinitions(asArray(response.tools)), {
      encoding: AGENTS_ENCODING,
    }),
  );
  bag.merge(promptAttributes(promptMessages(response.instructions, data._input), options));

  if (asString(response.id) === undefined) bag.set(GenAI.RESPONSE_ID, asString(data.response_id));
  setResponseIdentity(bag, response);
  setUsage(bag, response.usage);

  const output = readResponsesOutput(response);
  if (asArray(response.output).length > 0 || response.status !== undefined) {
    bag.merge(completionAttributes(0, responsesCompletion(response, output), options));
  }
  bag.merge(responsesTokenAttributes(response, output, options));
  return output.toolCalls;
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
  return safeJson(content);
}
