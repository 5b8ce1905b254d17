import { asArray, asRecord, asString, isRecord, type JsonRecord } from '@arclight/core';
import { asText } from '../json.js';

/**
 * Converts the AI SDK's normalized prompt (`instructions` + `ModelMessage[]`) into OpenAI chat messages, so
 * that spans of calls whose wire body is unknown (failed requests, non-OpenAI providers) still carry the
 * prompt in the `gen_ai.prompt.N.*` layout.
 */
export function toChatMessages(instructions: unknown, messages: unknown): JsonRecord[] {
  const out: JsonRecord[] = [];
  for (const instruction of instructionList(instructions)) out.push(instruction);
  for (const message of asArray(messages)) {
    const record = asRecord(message);
    if (record) out.push(...convertMessage(record));
  }
  return out;
}

function instructionList(instructions: unknown): JsonRecord[] {
  if (typeof instructions === 'string') {
    return instructions === '' ? [] : [{ role: 'system', content: instructions }];
  }
  const list = Array.isArray(instructions) ? instructions : [instructions];
  const out: JsonRecord[] = [];
  for (const item of list) {
    if (typeof item === 'string') out.push({ role: 'system', content: item });
    else if (isRecord(item)) out.push({ role: 'system', content: textOf(item.content) });
  }
  return out;
}

function convertMessage(message: JsonRecord): JsonRecord[] {
  const role = asString(message.role) ?? 'user';
  const content = message.content;
  if (role === 'tool') return toolResults(content);
  if (typeof content === 'string') return [{ role, content }];
  if (role !== 'assistant') return [{ role, content: userContent(content) }];
  const calls: JsonRecord[] = [];
  const texts: string[] = [];
  const results: JsonRecord[] = [];
  for (const value of asArray(content)) {
    const part = asRecord(value);
    if (!part) continue;
    if (part.type === 'text') texts.push(asString(part.text) ?? '');
    else if (part.type === 'tool-call') {
      calls.push({
        id: asString(part.toolCallId),
        type: 'function',
        function: { name: asString(part.toolName), arguments: asText(part.input) ?? '{}' },
      });
    } else if (part.type === 'tool-result') results.push(toolResult(part));
  }
  const assistant: JsonRecord = { role, content: texts.length > 0 ? texts.join('') : null };
  if (calls.length > 0) assistant.tool_calls = calls;
  return [assistant, ...results];
}

function toolResults(content: unknown): JsonRecord[] {
  const out: JsonRecord[] = [];
  for (const value of asArray(content)) {
    const part = asRecord(value);
    if (part?.type === 'tool-result') out.push(toolResult(part));
  }
  return out;
}

function toolResult(part: JsonRecord): JsonRecord {
  return {
    role: 'tool',
    tool_call_id: asString(part.toolCallId),
    content: toolOutputText(part.output),
  };
}

/** A tool result's text: `{type: 'text'|'json'|'error-text'|'error-json'|'content', value}`. */
export function toolOutputText(output: unknown): string {
  const record = asRecord(output);
  if (!record || !('value' in record)) return asText(output) ?? '';
  if (record.type === 'content') return textOf(record.value);
  return asText(record.value) ?? '';
}

/** User content: a plain string when every part is text, else OpenAI-like parts as JSON-able objects. */
function userContent(content: unknown): unknown {
  const parts = asArray(content);
  if (parts.every((p) => asRecord(p)?.type === 'text')) return textOf(parts);
  return parts.map((value) => {
    const part = asRecord(value) ?? {};
    if (part.type === 'text') return { type: 'text', text: asString(part.text) ?? '' };
    const data = part.image ?? part.data ?? part.url;
    const url = data instanceof URL ? data.href : asString(data);
    if (url !== undefined && /^(https?|data):/.test(url)) {
      return { type: 'image_url', image_url: { url } };
    }
    return { type: asString(part.type) ?? 'file', media_type: asString(part.mediaType) };
  });
}

/** Concatenated text of a string or of text parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((p) => {
      const part = asRecord(p);
      return part?.type === 'text' ? (asString(part.text) ?? '') : '';
    })
    .join('');
}
