// Public types of the fixture server: what responders see (FixtureRequest) and return (FixtureReply).
import type { FixtureTokenizer } from './tokenizer.js';

export type JsonObject = Record<string, unknown>;

/** JSON-schema subset the tool responder understands (anything else is tolerated and ignored). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  [key: string]: unknown;
}

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A chat message as the Chat Completions API sends it (content may be text parts). */
export interface ChatMessage {
  role: string;
  content?: string | readonly JsonObject[] | null;
  name?: string;
  tool_calls?: readonly ChatToolCall[];
  tool_call_id?: string;
  [key: string]: unknown;
}

/** A function tool, normalised from either the Chat (`{type, function}`) or Responses (flat) shape. */
export interface ToolDefinition {
  name: string;
  description?: string;
  parameters?: JsonSchema;
}

/** Tools accepted by the chat template: normalised, Chat-shaped or Responses-shaped. */
export type ChatToolInput =
  | ToolDefinition
  | { type: string; function?: ToolDefinition; name?: string };

export type FixtureApi = 'chat.completions' | 'responses' | 'completions';

/** The normalised view of one generation request, given to responders. */
export interface FixtureRequest {
  api: FixtureApi;
  path: string;
  model: string;
  /** Chat messages (Responses input is converted; a legacy prompt becomes one user message). */
  messages: ChatMessage[];
  tools: ToolDefinition[];
  /** `tool_choice` exactly as sent (undefined when absent). */
  toolChoice: unknown;
  /** `max_completion_tokens` / `max_tokens` / `max_output_tokens` (legacy completions default to 16). */
  maxTokens: number | undefined;
  stop: string[];
  /** Text of the last user message (or the legacy prompt). */
  lastUserText: string;
  /** Prompt text: the rendered chat template, or the raw legacy prompt. */
  prompt: string;
  promptTokenIds: number[];
  /** Lower-cased request headers. */
  headers: Record<string, string>;
  /** The raw JSON body. */
  body: JsonObject;
}

export interface FixtureToolCallReply {
  name: string;
  /** An object (serialised with JSON.stringify) or the exact argument string. */
  arguments: JsonObject | string;
  /** Tool call id; derived deterministically from the request when absent. */
  id?: string;
}

export interface FixtureErrorReply {
  status: number;
  message: string;
  /** OpenAI error `type`; derived from the status when absent. */
  type?: string;
  code?: string | number | null;
  param?: string | null;
  /** Extra response headers, e.g. `{ 'x-should-retry': 'false' }` or `{ 'retry-after-ms': '0' }`. */
  headers?: Record<string, string>;
}

export interface FixtureReply {
  content?: string | null;
  tool_calls?: FixtureToolCallReply[];
  /** Overrides the computed finish reason (unless the reply was truncated by max tokens). */
  finish_reason?: string;
  error?: FixtureErrorReply;
}

export interface ResponderContext {
  tokenizer: FixtureTokenizer;
  /** 0-based index of this generation request on the server (reset by `reset()`). */
  callIndex: number;
  /** 0-based choice index (`n` > 1, or several legacy prompts). */
  choiceIndex: number;
  /** Hex SHA-256 of the request path + canonical body. */
  requestHash: string;
}

export interface Responder {
  /** Shown nowhere on the wire; handy when debugging which responder answered. */
  name?: string;
  match(req: FixtureRequest): boolean;
  reply(req: FixtureRequest, ctx: ResponderContext): FixtureReply | Promise<FixtureReply>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}
