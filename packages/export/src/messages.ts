import { asList, asString, field, isObject, type JsonObject, parseJsonOr } from './json-shapes.js';
import type { ChatMessage, ChatTool, ChatToolCall } from './record.js';

/**
 * Rebuilds OpenAI chat messages from a triplet's `raw_content` (the unflattened `gen_ai.prompt` /
 * `gen_ai.completion` attributes: `{role, content, tool_call_id?, tool_calls: [{id, name, arguments}]}`) and
 * tool definitions from `metadata.request.functions` (`gen_ai.request.functions.N.{name, description,
 * parameters}`), as upstream's `TraceToMessages` does.
 */

/** Multimodal content is recorded as a JSON string of parts; turn it back into the parts array. */
function normalizeContent(content: unknown): unknown {
  if (typeof content !== 'string' || content.charCodeAt(0) !== 0x5b /* [ */) return content ?? null;
  const parsed = parseJsonOr(content, null);
  const parts = Array.isArray(parsed) ? parsed : null;
  if (parts && parts.length > 0 && parts.every((p) => typeof field(p, 'type') === 'string')) {
    return parts;
  }
  return content;
}

/** `arguments` as a JSON string (objects are serialised). */
function argumentsString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '{}';
  return JSON.stringify(value);
}

export function normalizeToolCall(raw: unknown, index: number): ChatToolCall | null {
  if (!isObject(raw)) return null;
  const fn = isObject(raw.function) ? raw.function : raw;
  const name = asString(fn.name);
  if (name === null) return null;
  return {
    id: asString(raw.id) ?? `call_${index}`,
    type: 'function',
    function: { name, arguments: argumentsString(fn.arguments) },
  };
}

/** One raw message (prompt entry or completion choice) → an OpenAI chat message, or null if it has no role. */
export function normalizeMessage(raw: unknown, defaultRole?: string): ChatMessage | null {
  if (!isObject(raw)) return null;
  const role = asString(raw.role) ?? defaultRole;
  if (!role) return null;
  // Keys in this order: role, then content, name, tool_call_id, refusal when recorded (not null), then content
  // (null or '') when it was not, then tool_calls. Each key is stored by name, not through a loop over key names:
  // this runs for every message of every call's prompt (an agent's prompt repeats the whole conversation).
  const message: ChatMessage = { role };
  const content = raw.content;
  if (content !== undefined && content !== null) message.content = normalizeContent(content);
  const name = raw.name;
  if (name !== undefined && name !== null) message.name = name as string;
  const toolCallId = raw.tool_call_id;
  if (toolCallId !== undefined && toolCallId !== null) message.tool_call_id = toolCallId as string;
  const refusal = raw.refusal;
  if (refusal !== undefined && refusal !== null) message.refusal = refusal;
  if (content === undefined || content === null) message.content = role === 'assistant' ? null : '';
  const rawCalls = raw.tool_calls;
  if (rawCalls !== undefined && rawCalls !== null) {
    const calls = (asList(rawCalls) ?? [])
      .map((call, i) => normalizeToolCall(call, i))
      .filter((call): call is ChatToolCall => call !== null);
    if (calls.length > 0) message.tool_calls = calls;
  }
  return message;
}

export function normalizeMessages(raw: unknown): ChatMessage[] {
  const list = asList(raw) ?? (isObject(raw) ? [raw] : []);
  const messages: ChatMessage[] = [];
  for (let i = 0; i < list.length; i++) {
    const message = normalizeMessage(list[i]);
    if (message !== null) messages.push(message);
  }
  return messages;
}

/** The first completion choice of a triplet's response: the assistant message and its finish reason. */
export function completionOf(rawContent: unknown): {
  message: ChatMessage | null;
  finish_reason: string | null;
} {
  const choices = asList(rawContent) ?? (isObject(rawContent) ? [rawContent] : []);
  const first = choices[0];
  if (first === undefined) return { message: null, finish_reason: null };
  const inner = isObject(first) && isObject(first.message) ? first.message : first;
  const message = normalizeMessage(inner, 'assistant');
  return { message, finish_reason: asString(field(first, 'finish_reason')) };
}

function normalizeTool(raw: unknown): ChatTool | null {
  if (!isObject(raw)) return null;
  const fn: JsonObject = isObject(raw.function) ? raw.function : raw;
  const name = asString(fn.name);
  if (name === null) return null;
  const tool: ChatTool = { type: 'function', function: { name } };
  const description = asString(fn.description);
  if (description !== null) tool.function.description = description;
  const parameters =
    typeof fn.parameters === 'string' ? parseJsonOr(fn.parameters, null) : fn.parameters;
  if (parameters !== undefined && parameters !== null) tool.function.parameters = parameters;
  return tool;
}

/** Tool definitions recorded with the request (`functions` in AgentOps' layout, or OpenAI `tools`). */
export function toolsOf(request: unknown): ChatTool[] {
  const raw = asList(field(request, 'functions')) ?? asList(field(request, 'tools')) ?? [];
  return raw.map(normalizeTool).filter((t): t is ChatTool => t !== null);
}

/** A canonical key for comparing messages across calls (content, tool calls and their parsed arguments). */
export function messageKey(message: ChatMessage): string {
  const calls = (message.tool_calls ?? []).map((c) => [
    c.function.name,
    JSON.stringify(parseJsonOr(c.function.arguments, c.function.arguments)),
  ]);
  const content = message.content === null || message.content === undefined ? '' : message.content;
  return JSON.stringify([message.role, content, calls, message.tool_call_id ?? null]);
}

const plainText = (value: unknown): value is string | null | undefined =>
  value === undefined || value === null || typeof value === 'string';

/**
 * `messageKey(a) === messageKey(b)` without serialising the common case (text messages without tool calls:
 * role, content and tool_call_id compared directly); other messages fall back to their keys.
 */
export function sameMessage(a: ChatMessage, b: ChatMessage): boolean {
  if (a === b) return true;
  if (
    typeof a.role === 'string' &&
    typeof b.role === 'string' &&
    plainText(a.content) &&
    plainText(b.content) &&
    plainText(a.tool_call_id) &&
    plainText(b.tool_call_id) &&
    !a.tool_calls?.length &&
    !b.tool_calls?.length
  ) {
    return (
      a.role === b.role &&
      (a.content ?? '') === (b.content ?? '') &&
      (a.tool_call_id ?? null) === (b.tool_call_id ?? null)
    );
  }
  return messageKey(a) === messageKey(b);
}

/** Are the lists equal message by message (`sameMessage`)? */
export function sameMessages(a: readonly ChatMessage[], b: readonly ChatMessage[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameMessage(a[i]!, b[i]!)) return false;
  return true;
}
