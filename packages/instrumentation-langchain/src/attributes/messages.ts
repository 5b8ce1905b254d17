import {
  asArray,
  asRecord,
  asString,
  isRecord,
  type JsonRecord,
  type ToolCallRecord,
} from '@arclight/core';
import { safeJson } from '../json.js';

/** A chat message in OpenAI's shape, as the `gen_ai.prompt.N.*` / `gen_ai.completion.N.*` attributes hold it. */
export interface ChatMessageRecord {
  role: string;
  /** Text, or the JSON of multimodal content blocks. */
  content?: string;
  tool_call_id?: string;
  tool_calls: ToolCallRecord[];
}

const ROLE_OF_TYPE: Readonly<Record<string, string>> = {
  human: 'user',
  ai: 'assistant',
  system: 'system',
  developer: 'developer',
  tool: 'tool',
  function: 'function',
};

const TYPE_OF_CLASS: Readonly<Record<string, string>> = {
  HumanMessage: 'human',
  HumanMessageChunk: 'human',
  AIMessage: 'ai',
  AIMessageChunk: 'ai',
  SystemMessage: 'system',
  SystemMessageChunk: 'system',
  ToolMessage: 'tool',
  ToolMessageChunk: 'tool',
  FunctionMessage: 'function',
  FunctionMessageChunk: 'function',
  ChatMessage: 'generic',
  ChatMessageChunk: 'generic',
};

/**
 * Converts a LangChain message — a `BaseMessage` instance or its serialised form
 * (`{ lc: 1, type: 'constructor', id: [..., 'HumanMessage'], kwargs }`) — to OpenAI's shape.
 */
export function toChatMessage(message: unknown): ChatMessageRecord | undefined {
  const fields = messageFields(message);
  if (!fields) return undefined;
  const { type, data } = fields;
  const additional = asRecord(data.additional_kwargs) ?? {};
  let role = ROLE_OF_TYPE[type] ?? asString(data.role) ?? type;
  if (type === 'system' && additional.__openai_role__ === 'developer') role = 'developer';
  return {
    role,
    content: contentText(data.content),
    tool_call_id: asString(data.tool_call_id),
    tool_calls: type === 'ai' ? messageToolCalls(data, additional) : [],
  };
}

/** The fields of a message instance or of its serialised form, with its LangChain type (`human`, `ai`, …). */
function messageFields(message: unknown): { type: string; data: JsonRecord } | undefined {
  if (!isRecord(message)) return undefined;
  if (message.lc === 1 && message.type === 'constructor') {
    const id = asArray(message.id);
    const className = asString(id[id.length - 1]) ?? '';
    const data = asRecord(message.kwargs) ?? {};
    return { type: TYPE_OF_CLASS[className] ?? 'generic', data };
  }
  const getType = (message as { getType?: () => unknown; _getType?: () => unknown }).getType;
  const type =
    asString(typeof getType === 'function' ? safeCall(() => getType.call(message)) : undefined) ??
    asString(message.type);
  if (type === undefined) {
    const role = asString(message.role);
    return role ? { type: role === 'user' ? 'human' : role, data: message } : undefined;
  }
  return { type, data: message };
}

function safeCall(fn: () => unknown): unknown {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** Text content stays text; content blocks become their JSON (as `@arclight/instrumentation-openai` writes multimodal content). */
export function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (content === undefined || content === null) return undefined;
  const blocks = asArray(content);
  if (blocks.length > 0 && blocks.every((b) => isRecord(b) && b.type === 'text')) {
    return blocks.map((b) => asString((b as JsonRecord).text) ?? '').join('');
  }
  return safeJson(content);
}

/** Tool calls of an AI message: the provider's raw calls when present, else LangChain's parsed ones. */
function messageToolCalls(data: JsonRecord, additional: JsonRecord): ToolCallRecord[] {
  const raw = asArray(additional.tool_calls);
  if (raw.length > 0) return raw.map(rawToolCall).filter((c) => c !== undefined);
  return asArray(data.tool_calls)
    .map((value) => {
      const call = asRecord(value);
      if (!call) return undefined;
      return {
        id: asString(call.id),
        name: asString(call.name),
        arguments: call.args === undefined ? undefined : safeJson(call.args),
      };
    })
    .filter((c) => c !== undefined);
}

/** An OpenAI tool call (`{ id, type, function: { name, arguments } }`). */
export function rawToolCall(value: unknown): ToolCallRecord | undefined {
  const call = asRecord(value);
  if (!call) return undefined;
  const fn = asRecord(call.function) ?? call;
  const args = fn.arguments;
  return {
    id: asString(call.id),
    name: asString(fn.name),
    arguments: typeof args === 'string' ? args : args === undefined ? undefined : safeJson(args),
  };
}
