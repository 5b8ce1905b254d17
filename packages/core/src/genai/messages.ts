import { AttributeBag, type AttributeEncoding, type AttributeRecord } from './attribute-bag.js';
import { asString, isRecord, type JsonRecord } from './json-readers.js';
import { GenAI } from './keys.js';
import { chatToolCalls, type ToolCallRecord } from './tool-calls.js';

/**
 * One prompt message or completion in the flattened layout (`gen_ai.prompt.N.*`, `gen_ai.completion.N.*`).
 * Fields are written in the order the object lists them; `undefined` fields are left out.
 */
export interface GenAIMessage {
  role?: string;
  /** Text; anything else (multimodal parts) is written as JSON. */
  content?: unknown;
  refusal?: string;
  finish_reason?: string;
  tool_call_id?: string;
  tool_calls?: readonly ToolCallRecord[];
}

/** What the message functions write, and how. */
export interface GenAIWriteOptions {
  /** Write message content, refusals and tool-call arguments. */
  captureContent: boolean;
  /** How values that are not attribute values become text (default: JSON). */
  encoding?: AttributeEncoding;
}

/** Reads an OpenAI chat message (`role`, `content`, `tool_call_id`, `tool_calls` / `function_call`). */
export function chatMessage(message: JsonRecord): GenAIMessage {
  return {
    role: asString(message.role),
    content: message.content,
    tool_call_id: asString(message.tool_call_id),
    tool_calls: chatToolCalls(message),
  };
}

/**
 * `gen_ai.prompt.N.*` of OpenAI chat messages. A message's index is its position in `messages`; entries that
 * are not objects write nothing.
 */
export function promptAttributes(
  messages: readonly unknown[],
  options: GenAIWriteOptions,
): AttributeRecord {
  const bag = new AttributeBag(options.encoding);
  messages.forEach((message, index) => {
    if (isRecord(message)) writeMessage(bag, promptPrefix(index), chatMessage(message), options);
  });
  return bag.attributes;
}

/** `gen_ai.prompt.{index}.*` of one message. */
export function promptMessageAttributes(
  index: number,
  message: GenAIMessage,
  options: GenAIWriteOptions,
): AttributeRecord {
  const bag = new AttributeBag(options.encoding);
  writeMessage(bag, promptPrefix(index), message, options);
  return bag.attributes;
}

/** `gen_ai.completion.{index}.*` of one completion. */
export function completionAttributes(
  index: number,
  completion: GenAIMessage,
  options: GenAIWriteOptions,
): AttributeRecord {
  const bag = new AttributeBag(options.encoding);
  writeMessage(bag, `${GenAI.COMPLETION}.${index}`, completion, options);
  return bag.attributes;
}

function promptPrefix(index: number): string {
  return `${GenAI.PROMPT}.${index}`;
}

function writeMessage(
  bag: AttributeBag,
  prefix: string,
  message: GenAIMessage,
  { captureContent }: GenAIWriteOptions,
): void {
  for (const field of Object.keys(message) as (keyof GenAIMessage)[]) {
    switch (field) {
      case 'content':
        if (captureContent) writeContent(bag, `${prefix}.content`, message.content);
        break;
      case 'refusal':
        if (captureContent) bag.set(`${prefix}.refusal`, message.refusal);
        break;
      case 'tool_calls':
        writeToolCalls(bag, prefix, message.tool_calls ?? [], captureContent);
        break;
      case 'role':
      case 'finish_reason':
      case 'tool_call_id':
        bag.set(`${prefix}.${field}`, message[field]);
        break;
    }
  }
}

/** Text stays text; multimodal content stays a JSON string, so image urls remain recoverable. */
function writeContent(bag: AttributeBag, key: string, content: unknown): void {
  if (typeof content === 'string') bag.set(key, content);
  else bag.setJson(key, content);
}

function writeToolCalls(
  bag: AttributeBag,
  prefix: string,
  calls: readonly ToolCallRecord[],
  captureContent: boolean,
): void {
  calls.forEach((call, j) => {
    bag.set(`${prefix}.tool_calls.${j}.id`, call.id);
    bag.set(`${prefix}.tool_calls.${j}.name`, call.name);
    if (captureContent) bag.set(`${prefix}.tool_calls.${j}.arguments`, call.arguments);
  });
}
