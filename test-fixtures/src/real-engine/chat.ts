// Chat messages → the prompt text the real model sees, and its generated text → content and tool calls.
// SmolLM2's GGUF template knows no tools, so tool definitions go into the system message (Hermes-style `<tools>`) and
// calls are read back from `<tool_call>{"name": …, "arguments": …}</tool_call>` in the generated text, as vLLM's
// hermes tool parser does. An assistant message carrying structured `tool_calls` is rendered back into the same
// `<tool_call>` text (the template itself would throw on `content: null`).
import { contentText, normalizeTools } from '../chat-template.js';
import { deterministicId } from '../hash.js';
import type { JsonObject } from '../types.js';

export interface ParsedToolCall {
  id: string;
  name: string;
  /** JSON text, as the OpenAI wire carries arguments. */
  arguments: string;
}

const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';

function toolsBlock(tools: readonly unknown[]): string {
  const lines = normalizeTools(tools).map((t) =>
    JSON.stringify({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }),
  );
  return [
    'You can call functions. The available functions, as JSON schemas:',
    '<tools>',
    ...lines,
    '</tools>',
    `To call a function, reply with ${OPEN}{"name": <function name>, "arguments": <arguments object>}${CLOSE}.`,
  ].join('\n');
}

/** The text of one tool call as the model is asked to write it. */
export function renderToolCall(name: string, args: string): string {
  let parsed: unknown = args;
  try {
    parsed = JSON.parse(args);
  } catch {
    // arguments that are not JSON are kept as the string the client sent
  }
  return `${OPEN}${JSON.stringify({ name, arguments: parsed })}${CLOSE}`;
}

/**
 * The text a reply must start with for `tool_choice` (a small guided decoding): `required` or a named function
 * forces a `<tool_call>` opening with the function's name when it is known, and — when the function's schema starts
 * with a required string property — that property's key, so the model only writes its value; `auto`/`none`/absent
 * force nothing.
 */
export function forcedToolCallPrefix(
  toolChoice: unknown,
  tools: readonly unknown[] | undefined,
): string {
  if (!tools || tools.length === 0 || toolChoice === undefined || toolChoice === null) return '';
  const defined = normalizeTools(tools);
  let name: string | undefined;
  if (typeof toolChoice === 'object') {
    const choice = toolChoice as JsonObject;
    name = String(((choice.function ?? {}) as JsonObject).name ?? choice.name ?? '');
  } else if (toolChoice === 'required') {
    name = defined.length === 1 ? defined[0]!.name : undefined;
  } else return '';
  if (!name) return `${OPEN}{"name": "`;
  const schema = (defined.find((t) => t.name === name)?.parameters ?? {}) as JsonObject;
  const key = Array.isArray(schema.required) ? schema.required[0] : undefined;
  const property =
    typeof key === 'string' ? ((schema.properties ?? {}) as JsonObject)[key] : undefined;
  const stringKey = (property as JsonObject | undefined)?.type === 'string' ? key : undefined;
  const args = stringKey ? `{${JSON.stringify(stringKey)}: "` : '';
  return `${OPEN}{"name": ${JSON.stringify(name)}, "arguments": ${args}`;
}

/** OpenAI chat messages (and tools) → plain `{role, content}` messages for the GGUF template. */
export function templateMessages(
  messages: readonly JsonObject[],
  tools: readonly unknown[] | undefined,
): { role: string; content: string }[] {
  const out = messages.map((m) => {
    const role = m.role === 'developer' ? 'system' : String(m.role ?? 'user');
    let content = contentText(m.content);
    const calls = Array.isArray(m.tool_calls) ? (m.tool_calls as JsonObject[]) : [];
    for (const call of calls) {
      const fn = (call.function ?? {}) as JsonObject;
      content += renderToolCall(String(fn.name ?? ''), String(fn.arguments ?? '{}'));
    }
    return { role, content };
  });
  if (tools && tools.length > 0) {
    const block = toolsBlock(tools);
    if (out[0]?.role === 'system')
      out[0] = { role: 'system', content: `${out[0].content}\n\n${block}` };
    else out.unshift({ role: 'system', content: block });
  }
  return out;
}

/** Splits generated text into content (text outside `<tool_call>` blocks) and the parsed calls. */
export function parseToolCalls(
  text: string,
  salt: string,
): { content: string; calls: ParsedToolCall[] } {
  const calls: ParsedToolCall[] = [];
  let content = '';
  let rest = text;
  for (;;) {
    const start = rest.indexOf(OPEN);
    if (start < 0) break;
    const end = rest.indexOf(CLOSE, start);
    const body = rest.slice(start + OPEN.length, end < 0 ? undefined : end).trim();
    const call = parseCall(body, `${salt}:${calls.length}`);
    if (!call) break;
    calls.push(call);
    content += rest.slice(0, start);
    rest = end < 0 ? '' : rest.slice(end + CLOSE.length);
  }
  content += rest;
  return { content: calls.length > 0 ? content.trim() : content, calls };
}

/** The first balanced `{…}` of `text` (strings and escapes respected), or undefined. */
function firstJsonObject(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}

function parseCall(body: string, salt: string): ParsedToolCall | undefined {
  let value: unknown;
  try {
    value = JSON.parse(firstJsonObject(body) ?? body);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { name, arguments: args } = value as JsonObject;
  if (typeof name !== 'string' || name === '') return undefined;
  return {
    id: deterministicId('call_', salt),
    name,
    arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
  };
}

/**
 * How much of `text` may be streamed as content: everything before a `<tool_call>` (or before a trailing partial
 * `<tool_…` that may become one) when tools are offered.
 */
export function streamableContentLength(text: string, toolsOffered: boolean): number {
  if (!toolsOffered) return text.length;
  const start = text.indexOf(OPEN);
  if (start >= 0) return start;
  for (let k = Math.min(OPEN.length - 1, text.length); k > 0; k--) {
    if (OPEN.startsWith(text.slice(text.length - k))) return text.length - k;
  }
  return text.length;
}
