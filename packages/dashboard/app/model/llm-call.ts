import { spanToTriplet } from '@arclight/adapter';
import type { Span } from '@arclight/core';

type Payload = { token_ids?: unknown; raw_content?: unknown; logprobs?: unknown };
const ids = (v: unknown): number => (Array.isArray(v) ? v.length : 0);

/** One message of an LLM call as recorded in `gen_ai.prompt.*` / `gen_ai.completion.*`. */
export interface CallMessage {
  role: string;
  content: string;
  tool_calls: { id: string | null; name: string; arguments: string }[];
  tool_call_id: string | null;
  finish_reason: string | null;
}

/** What the dashboard shows of one LLM call span. */
export interface LlmCallDetails {
  model: string | null;
  prompt: CallMessage[];
  completion: CallMessage[];
  /** `gen_ai.request.*` minus the messages: temperature, max tokens, tools… */
  request: Record<string, unknown>;
  /** Sampling parameters among the request fields. */
  sampling: Record<string, unknown>;
  usage: {
    prompt_tokens: number | null;
    completion_tokens: number | null;
    total_tokens: number | null;
  };
  prompt_token_ids: number;
  response_token_ids: number;
  has_logprobs: boolean;
  response_id: string | null;
  /** Set when the span's attributes cannot be read as an LLM call (the reason). */
  error: string | null;
}

const SAMPLING_KEYS = [
  'temperature',
  'top_p',
  'top_k',
  'max_tokens',
  'max_completion_tokens',
  'presence_penalty',
  'frequency_penalty',
  'seed',
  'stop',
  'stop_sequences',
  'n',
  'logprobs',
  'top_logprobs',
];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function text(content: unknown): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        isRecord(part) && typeof part.text === 'string' ? part.text : JSON.stringify(part),
      )
      .join('\n');
  }
  return JSON.stringify(content);
}

function parseMaybeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function toolCallsOf(value: unknown): CallMessage['tool_calls'] {
  const list = parseMaybeJson(value);
  if (!Array.isArray(list)) return [];
  return list.filter(isRecord).map((call) => {
    const fn = isRecord(call.function) ? call.function : call;
    const args = fn.arguments;
    return {
      id: typeof call.id === 'string' ? call.id : null,
      name: String(fn.name ?? '?'),
      arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
    };
  });
}

/** Messages from an unflattened `gen_ai.prompt` / `gen_ai.completion` value (a list, or an indexed object). */
export function messagesOf(raw: unknown): CallMessage[] {
  const list = Array.isArray(raw)
    ? raw
    : isRecord(raw)
      ? Object.keys(raw)
          .filter((k) => /^\d+$/.test(k))
          .sort((a, b) => Number(a) - Number(b))
          .map((k) => raw[k])
      : [];
  return list.filter(isRecord).map((m) => {
    const message = isRecord(m.message) ? { ...m, ...m.message } : m;
    return {
      role: String(message.role ?? 'assistant'),
      content: text(message.content),
      tool_calls: toolCallsOf(message.tool_calls),
      tool_call_id: typeof message.tool_call_id === 'string' ? message.tool_call_id : null,
      finish_reason: typeof message.finish_reason === 'string' ? message.finish_reason : null,
    };
  });
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function usageOf(span: Span): LlmCallDetails['usage'] {
  const a = span.attributes ?? {};
  const prompt = num(a['gen_ai.usage.prompt_tokens']) ?? num(a['gen_ai.usage.input_tokens']);
  const completion =
    num(a['gen_ai.usage.completion_tokens']) ?? num(a['gen_ai.usage.output_tokens']);
  const total =
    num(a['gen_ai.usage.total_tokens']) ??
    num(a['llm.usage.total_tokens']) ??
    (prompt !== null && completion !== null ? prompt + completion : null);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total };
}

/** Reads an LLM call span the way the adapter does (`spanToTriplet`), for display. */
export function llmCallDetails(span: Span): LlmCallDetails {
  let triplet: ReturnType<typeof spanToTriplet>;
  const usage = usageOf(span);
  try {
    triplet = spanToTriplet(span, null);
  } catch (error) {
    return {
      model: null,
      prompt: [],
      completion: [],
      request: {},
      sampling: {},
      usage,
      prompt_token_ids: 0,
      response_token_ids: 0,
      has_logprobs: false,
      response_id: null,
      error: (error as Error).message,
    };
  }
  const request = isRecord(triplet.metadata.request) ? triplet.metadata.request : {};
  const response = isRecord(triplet.metadata.response) ? triplet.metadata.response : {};
  const sampling: Record<string, unknown> = {};
  for (const key of SAMPLING_KEYS) if (request[key] !== undefined) sampling[key] = request[key];
  const prompt = (triplet.prompt ?? {}) as Payload;
  const completion = (triplet.response ?? {}) as Payload;
  const logprobs = completion.logprobs;
  return {
    model: String(response.model ?? request.model ?? '') || null,
    prompt: messagesOf(prompt.raw_content),
    completion: messagesOf(completion.raw_content),
    request,
    sampling,
    usage,
    prompt_token_ids: ids(prompt.token_ids),
    response_token_ids: ids(completion.token_ids),
    has_logprobs: logprobs !== undefined && logprobs !== null,
    response_id:
      typeof triplet.metadata.response_id === 'string' ? triplet.metadata.response_id : null,
    error: null,
  };
}
