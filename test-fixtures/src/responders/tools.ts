// Built-in responder: tool calling. Active for model `fixture-tools` or header `x-fixture-tool-call`.
// - Last message is not a tool result: calls the tool(s) named by the header (comma-separated; names not in
//   `tools` are called anyway, to simulate hallucinated calls), else the `tool_choice`-named function, else
//   the first tool, with deterministic arguments built from the tool's JSON schema.
// - Last message is a tool result: answers with text summarising the trailing tool results.
import { contentText } from '../chat-template.js';
import type { ChatMessage, FixtureReply, FixtureRequest, JsonObject, Responder } from '../types.js';
import { exampleArguments } from './schema-args.js';

export const TOOLS_MODEL = 'fixture-tools';
export const TOOL_CALL_HEADER = 'x-fixture-tool-call';

function active(req: FixtureRequest): boolean {
  return req.model === TOOLS_MODEL || req.headers[TOOL_CALL_HEADER] !== undefined;
}

function headerNames(req: FixtureRequest): string[] {
  return (req.headers[TOOL_CALL_HEADER] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function choiceName(toolChoice: unknown): string | undefined {
  if (toolChoice === null || typeof toolChoice !== 'object') return undefined;
  const c = toolChoice as JsonObject;
  const fn = c.function as JsonObject | undefined;
  if (typeof fn?.name === 'string') return fn.name;
  return typeof c.name === 'string' ? c.name : undefined;
}

function trailingToolResults(messages: readonly ChatMessage[]): ChatMessage[] {
  let start = messages.length;
  while (start > 0 && messages[start - 1]?.role === 'tool') start--;
  return messages.slice(start);
}

function toolNameFor(messages: readonly ChatMessage[], callId: string | undefined): string {
  for (const m of messages) {
    for (const call of m.tool_calls ?? []) if (call.id === callId) return call.function.name;
  }
  return 'tool';
}

/** Text answering a turn whose last messages are tool results. */
export function summarizeToolResults(messages: readonly ChatMessage[]): string {
  const parts = trailingToolResults(messages).map(
    (m) => `${toolNameFor(messages, m.tool_call_id)}: ${contentText(m.content)}`,
  );
  return `Based on the tool results: ${parts.join('; ')}`;
}

export const toolCallResponder: Responder = {
  name: 'tool-calling',
  match: (req) => {
    if (!active(req)) return false;
    if (req.messages.at(-1)?.role === 'tool') return true;
    if (req.toolChoice === 'none') return false;
    return req.tools.length > 0 || headerNames(req).length > 0;
  },
  reply: (req): FixtureReply => {
    if (req.messages.at(-1)?.role === 'tool')
      return { content: summarizeToolResults(req.messages) };
    const wanted = headerNames(req);
    const chosen = choiceName(req.toolChoice);
    const names = wanted.length > 0 ? wanted : [chosen ?? req.tools[0]!.name];
    return {
      content: null,
      tool_calls: names.map((name) => ({
        name,
        arguments: exampleArguments(req.tools.find((t) => t.name === name)?.parameters),
      })),
    };
  },
};
