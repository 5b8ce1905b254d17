// Normalises Chat Completions, Responses and legacy Completions bodies into FixtureRequests.
import { contentText, normalizeTools } from './chat-template.js';
import { HttpError } from './http.js';
import type { FixtureTokenizer } from './tokenizer.js';
import type { ChatMessage, ChatToolCall, FixtureApi, FixtureRequest, JsonObject } from './types.js';

export const DEFAULT_MODEL = 'fixture-model';
/** vLLM's (and OpenAI's) default `max_tokens` for legacy completions. */
export const LEGACY_DEFAULT_MAX_TOKENS = 16;

export interface RequestMeta {
  path: string;
  headers: Record<string, string>;
  tokenizer: FixtureTokenizer;
}

const isObject = (v: unknown): v is JsonObject =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function optionalInt(body: JsonObject, key: string): number | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw new HttpError(
      400,
      `${key}: expected a non-negative integer, got ${JSON.stringify(v)}`,
      key,
    );
  }
  return v;
}

function stopList(body: JsonObject): string[] {
  const stop = body.stop;
  if (typeof stop === 'string') return [stop];
  return Array.isArray(stop) ? stop.filter((s): s is string => typeof s === 'string') : [];
}

export function lastUserText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'user') return contentText(messages[i]!.content);
  }
  return '';
}

function modelOf(body: JsonObject): string {
  if (body.model === undefined || body.model === null) return DEFAULT_MODEL;
  if (typeof body.model !== 'string') throw new HttpError(400, 'model: expected a string', 'model');
  return body.model;
}

function finish(
  api: FixtureApi,
  body: JsonObject,
  meta: RequestMeta,
  fields: Pick<FixtureRequest, 'messages' | 'tools' | 'maxTokens' | 'prompt'>,
  promptTokenIds?: number[],
): FixtureRequest {
  return {
    api,
    path: meta.path,
    model: modelOf(body),
    toolChoice: body.tool_choice,
    stop: stopList(body),
    lastUserText: lastUserText(fields.messages),
    promptTokenIds: promptTokenIds ?? meta.tokenizer.encode(fields.prompt),
    headers: meta.headers,
    body,
    ...fields,
  };
}

export function chatRequest(body: JsonObject, meta: RequestMeta): FixtureRequest {
  const raw = body.messages;
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new HttpError(400, 'messages: expected a non-empty array', 'messages');
  }
  raw.forEach((m, i) => {
    if (!isObject(m) || typeof m.role !== 'string') {
      throw new HttpError(400, `messages[${i}].role: expected a string`, `messages[${i}].role`);
    }
  });
  const messages = raw as ChatMessage[];
  const tools = normalizeTools(Array.isArray(body.tools) ? body.tools : []);
  return finish(
    'chat.completions',
    body,
    meta,
    {
      messages,
      tools,
      maxTokens: optionalInt(body, 'max_completion_tokens') ?? optionalInt(body, 'max_tokens'),
      prompt: meta.tokenizer.render(messages, tools),
    },
    meta.tokenizer.encodeChat(messages, tools),
  );
}

/** Converts Responses `input` items (+ `instructions`) into chat messages. */
export function responsesMessages(body: JsonObject): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (typeof body.instructions === 'string')
    messages.push({ role: 'system', content: body.instructions });
  const input = body.input;
  if (typeof input === 'string') return [...messages, { role: 'user', content: input }];
  if (!Array.isArray(input))
    throw new HttpError(400, 'input: expected a string or an array', 'input');
  input.forEach((item, i) => {
    if (!isObject(item)) throw new HttpError(400, `input[${i}]: expected an object`, `input[${i}]`);
    const type = item.type ?? 'message';
    if (type === 'message') {
      if (typeof item.role !== 'string') {
        throw new HttpError(400, `input[${i}].role: expected a string`, `input[${i}].role`);
      }
      messages.push({ role: item.role, content: contentText(item.content) });
    } else if (type === 'function_call') {
      const call: ChatToolCall = {
        id: String(item.call_id ?? item.id ?? ''),
        type: 'function',
        function: { name: String(item.name ?? ''), arguments: String(item.arguments ?? '') },
      };
      const last = messages.at(-1);
      if (last?.role === 'assistant' && last.tool_calls)
        last.tool_calls = [...last.tool_calls, call];
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (type === 'function_call_output') {
      const output = typeof item.output === 'string' ? item.output : contentText(item.output);
      messages.push({ role: 'tool', tool_call_id: String(item.call_id ?? ''), content: output });
    }
    // Other item types (reasoning, web search results, …) carry nothing the fixture renders.
  });
  return messages;
}

export function responsesRequest(body: JsonObject, meta: RequestMeta): FixtureRequest {
  const messages = responsesMessages(body);
  const tools = normalizeTools(
    Array.isArray(body.tools) ? body.tools.filter((t) => isObject(t) && t.type === 'function') : [],
  );
  return finish(
    'responses',
    body,
    meta,
    {
      messages,
      tools,
      maxTokens: optionalInt(body, 'max_output_tokens'),
      prompt: meta.tokenizer.render(messages, tools),
    },
    meta.tokenizer.encodeChat(messages, tools),
  );
}

/** One FixtureRequest per legacy prompt (a string, strings, token ids, or lists of token ids). */
export function completionRequests(body: JsonObject, meta: RequestMeta): FixtureRequest[] {
  const p = body.prompt;
  const ids = (v: unknown): v is number[] =>
    Array.isArray(v) && v.length > 0 && v.every((x) => Number.isInteger(x));
  let prompts: (string | number[])[];
  if (typeof p === 'string' || ids(p)) prompts = [p];
  else if (Array.isArray(p) && p.length > 0 && p.every((x) => typeof x === 'string' || ids(x))) {
    prompts = p as (string | number[])[];
  } else
    throw new HttpError(400, 'prompt: expected a string, strings, or token id arrays', 'prompt');
  const maxTokens = optionalInt(body, 'max_tokens') ?? LEGACY_DEFAULT_MAX_TOKENS;
  return prompts.map((item, i) => {
    let prompt: string;
    try {
      prompt = typeof item === 'string' ? item : meta.tokenizer.decode(item);
    } catch (e) {
      throw new HttpError(400, `prompt[${i}]: ${(e as Error).message}`, 'prompt');
    }
    const fields = { messages: [{ role: 'user', content: prompt }], tools: [], maxTokens, prompt };
    return finish('completions', body, meta, fields, typeof item === 'string' ? undefined : item);
  });
}
