// A ChatML / Qwen-style chat template. The assistant rendering (content, then one <tool_call> block per
// call) is shared with the generator, so a reply's token ids are the same text the next turn's prompt shows.
import type { ChatMessage, ChatToolInput, JsonObject, ToolDefinition } from './types.js';

export interface ChatTemplateOptions {
  /** Append `<|im_start|>assistant\n` (default true). */
  addGenerationPrompt?: boolean;
}

export const DEFAULT_TOOL_SYSTEM_PROMPT = 'You are a helpful assistant.';

/** One piece of generated assistant text; tool calls are split so arguments stream separately. */
export interface AssistantSegment {
  kind: 'content' | 'tool_header' | 'tool_args' | 'tool_footer';
  text: string;
  /** Index of the tool call for the tool_* kinds. */
  toolIndex?: number;
}

/** Text of a message's content: strings as is, text parts concatenated, images as `<image>`. */
export function contentText(content: ChatMessage['content'] | unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      if (typeof part === 'string') return part;
      if (part === null || typeof part !== 'object') return '';
      const p = part as JsonObject;
      if (typeof p.text === 'string') return p.text;
      if (typeof p.refusal === 'string') return p.refusal;
      if (p.type === 'image_url' || p.type === 'input_image') return '<image>';
      return '';
    })
    .join('');
}

/** Normalises Chat-shaped (`{type:'function', function}`), Responses-shaped and bare tool definitions. */
export function normalizeTools(tools: readonly unknown[] | undefined): ToolDefinition[] {
  const out: ToolDefinition[] = [];
  for (const tool of tools ?? []) {
    if (tool === null || typeof tool !== 'object') continue;
    const t = tool as JsonObject;
    const fn = (t.function && typeof t.function === 'object' ? t.function : t) as JsonObject;
    if (typeof fn.name !== 'string') continue;
    const def: ToolDefinition = { name: fn.name };
    if (typeof fn.description === 'string') def.description = fn.description;
    if (fn.parameters && typeof fn.parameters === 'object')
      def.parameters = fn.parameters as JsonObject;
    out.push(def);
  }
  return out;
}

/** Arguments as they appear inside a <tool_call> block: JSON text kept, anything else JSON-quoted. */
function argumentsJson(args: string): string {
  try {
    JSON.parse(args);
    return args;
  } catch {
    return JSON.stringify(args);
  }
}

export function assistantSegments(
  content: string | null | undefined,
  toolCalls: readonly { name: string; arguments: string }[] = [],
): AssistantSegment[] {
  const segments: AssistantSegment[] = [];
  if (content) segments.push({ kind: 'content', text: content });
  toolCalls.forEach((call, toolIndex) => {
    const lead = content || toolIndex > 0 ? '\n' : '';
    const header = `${lead}<tool_call>\n{"name": ${JSON.stringify(call.name)}, "arguments": `;
    segments.push({ kind: 'tool_header', text: header, toolIndex });
    segments.push({ kind: 'tool_args', text: argumentsJson(call.arguments), toolIndex });
    segments.push({ kind: 'tool_footer', text: '}\n</tool_call>', toolIndex });
  });
  return segments;
}

/** The segments of an assistant message as the generator produced them (see `assistantSegments`). */
function assistantMessageSegments(message: ChatMessage): string[] {
  const calls = (message.tool_calls ?? []).map((c) => ({
    name: c.function?.name ?? '',
    arguments: c.function?.arguments ?? '{}',
  }));
  return assistantSegments(contentText(message.content), calls).map((s) => s.text);
}

export function renderAssistant(message: ChatMessage): string {
  return assistantMessageSegments(message).join('');
}

function toolsSystemBlock(system: string, tools: ToolDefinition[]): string {
  const signatures = tools.map((t) => JSON.stringify({ type: 'function', function: t })).join('\n');
  return (
    `${system}\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n` +
    'You are provided with function signatures within <tools></tools> XML tags:\n' +
    `<tools>\n${signatures}\n</tools>\n\n` +
    'For each function call, return a json object with function name and arguments within ' +
    '<tool_call></tool_call> XML tags:\n<tool_call>\n' +
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
  );
}

export function renderChatTemplate(
  messages: readonly ChatMessage[],
  toolsInput: readonly ChatToolInput[] = [],
  options: ChatTemplateOptions = {},
): string {
  return renderChatTemplateChunks(messages, toolsInput, options).join('');
}

/**
 * The rendered prompt as chunks that are tokenized one by one: each assistant message's body is split into the
 * segments the generator encoded it in (content, tool-call header, arguments, footer), so a reply's token ids
 * reappear unchanged in the next turn's prompt — the prefix-preserving behaviour of real engines' templates
 * (Token-In-Token-Out). The text is the same as rendering in one piece.
 */
export function renderChatTemplateChunks(
  messages: readonly ChatMessage[],
  toolsInput: readonly ChatToolInput[] = [],
  options: ChatTemplateOptions = {},
): string[] {
  const tools = normalizeTools(toolsInput);
  const chunks: string[] = [];
  let out = '';
  const flush = () => {
    if (out !== '') chunks.push(out);
    out = '';
  };
  let rest = messages;
  const first = messages[0];
  const firstIsSystem = first?.role === 'system' || first?.role === 'developer';
  if (tools.length > 0) {
    const system = firstIsSystem ? contentText(first.content) : DEFAULT_TOOL_SYSTEM_PROMPT;
    out += `<|im_start|>system\n${toolsSystemBlock(system, tools)}<|im_end|>\n`;
    if (firstIsSystem) rest = messages.slice(1);
  }
  rest.forEach((message, i) => {
    if (message.role === 'tool') {
      if (rest[i - 1]?.role !== 'tool') out += '<|im_start|>user';
      out += `\n<tool_response>\n${contentText(message.content)}\n</tool_response>`;
      if (rest[i + 1]?.role !== 'tool') out += '<|im_end|>\n';
      return;
    }
    out += `<|im_start|>${message.role}\n`;
    if (message.role === 'assistant') {
      flush();
      chunks.push(...assistantMessageSegments(message).filter((text) => text !== ''));
    } else {
      out += contentText(message.content);
    }
    out += '<|im_end|>\n';
  });
  if (options.addGenerationPrompt !== false) out += '<|im_start|>assistant\n';
  flush();
  return chunks;
}
