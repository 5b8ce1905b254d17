import { sameMessage } from './messages.js';
import type { PreparedCall } from './prepared.js';
import type { ChatMessage, ChatTool } from './record.js';

/**
 * The message-level counterpart of the token merge: consecutive calls of a rollout form one conversation while
 * each call's prompt messages start with the conversation so far (previous prompt + assistant reply, compared
 * by role, content, tool-call names/arguments and tool_call_id). Otherwise (another agent, rewritten history)
 * a new conversation starts. Calls without recorded messages are left out and break the chain.
 */
export interface Conversation {
  calls: PreparedCall[];
  /** The whole conversation: the last call's prompt followed by its reply. */
  messages: ChatMessage[];
  /** Message index → the call whose reply it is (the trainable assistant turns). */
  generated: Map<number, PreparedCall>;
  /** Messages before the first generated reply (the first call's prompt). */
  prompt_length: number;
  /** Tools offered to any call of the conversation (by name, first definition wins, in first-seen order). */
  tools: ChatTool[];
}

const usable = (call: PreparedCall): boolean =>
  call.prompt_messages.length > 0 && call.response_message !== null;

/** Does `prompt` start with `messages` (message by message, as `messageKey` compares them)? */
function startsWith(prompt: ChatMessage[], messages: ChatMessage[]): boolean {
  if (prompt.length < messages.length) return false;
  for (let i = 0; i < messages.length; i++)
    if (!sameMessage(prompt[i]!, messages[i]!)) return false;
  return true;
}

/** `a` plus the tools of `b` whose names `a` lacks. */
export function mergeTools(a: ChatTool[], b: ChatTool[]): ChatTool[] {
  if (b.length === 0 || a === b) return a; // the common cases: no tools, or the same list
  const names = new Set(a.map((t) => t.function.name));
  const added = b.filter((t) => !names.has(t.function.name));
  return added.length > 0 ? [...a, ...added] : a;
}

export function conversationsOf(calls: readonly PreparedCall[]): Conversation[] {
  const conversations: Conversation[] = [];
  let current: Conversation | null = null;
  for (const call of calls) {
    if (!usable(call)) {
      current = null;
      continue;
    }
    const reply = call.response_message!;
    if (current && startsWith(call.prompt_messages, current.messages)) {
      current.calls.push(call);
      current.messages = [...call.prompt_messages, reply];
      current.generated.set(call.prompt_messages.length, call);
      current.tools = mergeTools(current.tools, call.tools);
    } else {
      current = {
        calls: [call],
        messages: [...call.prompt_messages, reply],
        generated: new Map([[call.prompt_messages.length, call]]),
        prompt_length: call.prompt_messages.length,
        tools: call.tools,
      };
      conversations.push(current);
    }
  }
  return conversations;
}
