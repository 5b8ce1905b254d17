import { isPlainRecord, parsePythonJson, ValidationError } from '@arclight/core';
import type {
  ChatAssistantMessage,
  ChatFunctionTool,
  ChatMessage,
  ChatToolCall,
  OpenAIMessages,
} from './chat-types.js';

/** What `TraceToMessages` reads from one span (upstream `_RawSpanInfo`). */
export interface RawSpanInfo {
  prompt: unknown[];
  completion: unknown[];
  request: Record<string, unknown>;
  response: Record<string, unknown>;
  tools: Record<string, unknown>[];
}

/** Python's `mapping[key]`: a `ValidationError` where Python raises `KeyError` / `TypeError`. */
function item(container: unknown, key: string, where: string): unknown {
  if (!isPlainRecord(container) || !Object.hasOwn(container, key)) {
    throw new ValidationError(`${where}: missing '${key}'`);
  }
  return container[key];
}

/** Python's iteration of a list; iterating a dict or string yields keys/characters, which then fail. */
function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new ValidationError(`${where}: expected a list`);
  return value;
}

const get = (record: Record<string, unknown>, key: string, fallback: unknown): unknown =>
  Object.hasOwn(record, key) ? record[key] : fallback;

/**
 * Upstream's `TypeAdapter(ChatCompletionMessageParam).validate_python({role, content, tool_call_id})`: the
 * role picks the message type; keys come out in the SDK's declaration order and `tool_call_id` is kept
 * for tool messages only. Content must be a string or a list of parts (`null` too for the assistant);
 * parts are passed through as given (upstream returns them as an unconsumed lazy Pydantic iterator).
 */
function promptMessage(
  role: unknown,
  content: unknown,
  toolCallId: unknown,
  where: string,
): ChatMessage {
  const listLike = Array.isArray(content) || isPlainRecord(content);
  const contentOk = typeof content === 'string' || listLike;
  switch (role) {
    case 'system':
    case 'developer':
    case 'user':
      if (contentOk) return { content, role };
      break;
    case 'assistant':
      if (contentOk || content === null) return { role, content };
      break;
    case 'tool':
      if (contentOk && typeof toolCallId === 'string') {
        return { content, role, tool_call_id: toolCallId };
      }
      break;
  }
  throw new ValidationError(
    `${where}: not a valid chat message (role ${JSON.stringify(role)}, content ${typeof content}` +
      `${role === 'tool' ? `, tool_call_id ${JSON.stringify(toolCallId)}` : ''})`,
  );
}

function promptToolCalls(calls: unknown, where: string): ChatToolCall[] {
  return list(calls, `${where}.tool_calls`).map((call, j) => {
    const at = `${where}.tool_calls.${j}`;
    return {
      id: item(call, 'id', at),
      type: 'function',
      function: { name: item(call, 'name', at), arguments: item(call, 'arguments', at) },
    };
  });
}

function toolDefinitions(functions: unknown): ChatFunctionTool[] {
  return list(functions, 'gen_ai.request.functions').map((fn, i) => {
    const at = `gen_ai.request.functions.${i}`;
    const name = item(fn, 'name', at);
    const description = get(fn as Record<string, unknown>, 'description', '');
    const parameters = item(fn, 'parameters', at);
    let parsed: unknown = parameters;
    if (typeof parameters === 'string') {
      try {
        parsed = parsePythonJson(parameters);
      } catch (error) {
        throw new ValidationError(`${at}.parameters: not JSON`, { cause: error });
      }
    }
    return { type: 'function', function: { name, description, parameters: parsed } };
  });
}

/** Upstream `convert_to_openai_messages`, for one span's data. */
export function toOpenAIMessages(entry: RawSpanInfo, spanId: string): OpenAIMessages {
  const messages: ChatMessage[] = [];
  entry.prompt.forEach((message, i) => {
    const where = `span '${spanId}' gen_ai.prompt.${i}`;
    const role = item(message, 'role', where);
    const record = message as Record<string, unknown>;
    if (role === 'assistant' && Object.hasOwn(record, 'tool_calls')) {
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: promptToolCalls(record.tool_calls, where),
      });
    } else {
      const content = get(record, 'content', '');
      messages.push(promptMessage(role, content, get(record, 'tool_call_id', null), where));
    }
  });
  entry.completion.forEach((completion, i) => {
    const where = `span '${spanId}' gen_ai.completion.${i}`;
    if (!isPlainRecord(completion)) throw new ValidationError(`${where}: expected an object`);
    if (get(completion, 'role', null) !== 'assistant') return;
    const message: ChatAssistantMessage = {
      role: 'assistant',
      content: get(completion, 'content', null),
    };
    if (entry.tools.length > 0) {
      message.tool_calls = entry.tools.map((tool, j) => {
        const at = `span '${spanId}' tool call ${j}`;
        const call = item(tool, 'call', at);
        return {
          id: item(call, 'id', `${at} call`),
          type: item(call, 'type', `${at} call`),
          function: { name: item(tool, 'name', at), arguments: item(tool, 'parameters', at) },
        };
      });
    }
    messages.push(message);
  });
  const tools = Object.hasOwn(entry.request, 'functions')
    ? toolDefinitions(entry.request.functions)
    : null;
  return { messages, tools };
}
