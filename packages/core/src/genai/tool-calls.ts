import { AttributeBag, type AttributeRecord } from './attribute-bag.js';
import { asArray, asRecord, asString, isRecord, type JsonRecord } from './json-readers.js';
import { ToolCallAttributes } from './keys.js';

/** A tool call of a message: `gen_ai.{prompt|completion}.N.tool_calls.M.*` and a `tool_call.<name>` span. */
export interface ToolCallRecord {
  id?: string;
  /** `function` unless the source says otherwise. */
  type?: string;
  name?: string;
  /** The arguments as the model wrote them (JSON text). */
  arguments?: string;
}

/**
 * Reads one OpenAI chat tool call: `{id, type, function: {name, arguments}}`, a custom tool call
 * (`custom: {name, input}`) or a flat `{id, name, arguments}`.
 */
export function chatToolCall(call: JsonRecord): ToolCallRecord {
  const fn = asRecord(call.function) ?? asRecord(call.custom) ?? call;
  return {
    id: asString(call.id),
    type: asString(call.type) ?? 'function',
    name: asString(fn.name),
    arguments: asString(fn.arguments) ?? asString(fn.input),
  };
}

/** The tool calls of an OpenAI chat message: `tool_calls[]`, else the legacy `function_call`. */
export function chatToolCalls(message: JsonRecord): ToolCallRecord[] {
  const calls = asArray(message.tool_calls).filter(isRecord).map(chatToolCall);
  const legacy = asRecord(message.function_call);
  if (legacy && calls.length === 0) {
    calls.push({
      type: 'function',
      name: asString(legacy.name),
      arguments: asString(legacy.arguments),
    });
  }
  return calls;
}

/** Name of the child span of a tool call: `tool_call.<name>`. */
export function toolCallSpanName(call: ToolCallRecord): string {
  return `${ToolCallAttributes.SPAN_NAME_PREFIX}${call.name ?? 'unknown'}`;
}

/** Attributes of the child span of a tool call (`tool.parameters` only when content is captured). */
export function toolCallSpanAttributes(
  call: ToolCallRecord,
  captureContent: boolean,
): AttributeRecord {
  const bag = new AttributeBag();
  bag.set(ToolCallAttributes.NAME, call.name);
  if (captureContent) bag.set(ToolCallAttributes.PARAMETERS, call.arguments);
  bag.set(ToolCallAttributes.CALL_ID, call.id);
  bag.set(ToolCallAttributes.CALL_TYPE, call.type ?? 'function');
  return bag.attributes;
}
