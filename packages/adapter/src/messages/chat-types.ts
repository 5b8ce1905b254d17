/** OpenAI chat-format shapes `TraceToMessages` produces (the `openai` SDK's `ChatCompletion*Param` types). */

export interface ChatToolCall {
  id: unknown;
  type: unknown;
  function: { name: unknown; arguments: unknown };
}

/** `system` / `developer` / `user` message (keys in the SDK's declaration order: content, role). */
export interface ChatContentMessage {
  content: unknown;
  role: 'system' | 'developer' | 'user';
}

export interface ChatAssistantMessage {
  role: 'assistant';
  content: unknown;
  tool_calls?: ChatToolCall[];
}

export interface ChatToolMessage {
  content: unknown;
  role: 'tool';
  tool_call_id: string;
}

export type ChatMessage = ChatContentMessage | ChatAssistantMessage | ChatToolMessage;

export interface ChatFunctionTool {
  type: 'function';
  function: { name: unknown; description: unknown; parameters: unknown };
}

/** Upstream `OpenAIMessages`: one conversation, ending with the call's completion, and its tools. */
export interface OpenAIMessages {
  messages: ChatMessage[];
  tools: ChatFunctionTool[] | null;
}
