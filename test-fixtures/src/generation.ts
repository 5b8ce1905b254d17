// Turns a responder's FixtureReply into a "generation": the assistant text as token-id segments (the same
// segments drive plain and streamed responses, so their ids always agree), tool calls, and finish reason.
// Like vLLM, a finished completion ends with <|im_end|>; a truncated one (max tokens, stop string) does not.
import { type AssistantSegment, assistantSegments } from './chat-template.js';
import { deterministicId } from './hash.js';
import type { FixtureTokenizer } from './tokenizer.js';
import type { FixtureReply, FixtureRequest } from './types.js';

export interface GenSegment {
  kind: AssistantSegment['kind'] | 'eos';
  text: string;
  ids: number[];
  toolIndex?: number;
}

export interface GenToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface Generation {
  content: string | null;
  toolCalls: GenToolCall[];
  finishReason: string;
  /** vLLM's `stop_reason`: the matched stop string, else null. */
  stopReason: string | null;
  segments: GenSegment[];
  tokenIds: number[];
  /** Whether the reply was cut by max tokens. */
  truncated: boolean;
}

export interface GenerationSeed {
  requestHash: string;
  callIndex: number;
  choiceIndex: number;
}

function encodeSegments(tokenizer: FixtureTokenizer, segments: AssistantSegment[]): GenSegment[] {
  return segments.map((s) => ({ ...s, ids: tokenizer.encode(s.text) }));
}

function cutAtStop(
  content: string,
  stop: readonly string[],
): { text: string; stop: string } | undefined {
  let best: { text: string; stop: string } | undefined;
  for (const s of stop) {
    if (!s) continue;
    const at = content.indexOf(s);
    if (at >= 0 && (best === undefined || at < best.text.length))
      best = { text: content.slice(0, at), stop: s };
  }
  return best;
}

export function buildGeneration(
  tokenizer: FixtureTokenizer,
  req: FixtureRequest,
  reply: FixtureReply,
  seed: GenerationSeed,
): Generation {
  const toolCalls: GenToolCall[] = (reply.tool_calls ?? []).map((call, i) => ({
    id: call.id ?? deterministicId('call_', seed.requestHash, seed.callIndex, seed.choiceIndex, i),
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
  let content = reply.content ?? (toolCalls.length > 0 ? null : '');
  let stopReason: string | null = null;
  let stopped = false;
  if (toolCalls.length === 0 && content) {
    const cut = cutAtStop(content, req.stop);
    if (cut) {
      content = cut.text;
      stopReason = cut.stop;
      stopped = true;
    }
  }
  let segments = encodeSegments(tokenizer, assistantSegments(content, toolCalls));
  const eos: GenSegment = { kind: 'eos', text: '<|im_end|>', ids: [tokenizer.imEndId] };
  const total = segments.reduce((n, s) => n + s.ids.length, 0) + (stopped ? 0 : 1);
  const max = req.maxTokens;
  if (max !== undefined && total > max) {
    // Out of budget: the raw text (tool-call markup included, as a real parser would give up) cut to `max`.
    const ids = segments.flatMap((s) => s.ids).slice(0, Math.max(0, max));
    const text = tokenizer.decode(ids);
    segments = ids.length > 0 ? [{ kind: 'content', text, ids }] : [];
    return {
      content: text,
      toolCalls: [],
      finishReason: 'length',
      stopReason: null,
      segments,
      tokenIds: ids,
      truncated: true,
    };
  }
  if (!stopped) segments.push(eos);
  const finishReason = reply.finish_reason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
  return {
    content: content === '' && toolCalls.length > 0 ? null : content,
    toolCalls,
    finishReason,
    stopReason,
    segments,
    tokenIds: segments.flatMap((s) => s.ids),
    truncated: false,
  };
}

/**
 * Splits ids into stream steps of 1 or 2 decodable units (alternating, starting with `phase`): single ids, or
 * in the `bytes` vocabulary the bytes of one character, so no step's text splits a character.
 */
export function steps(tokenizer: FixtureTokenizer, ids: readonly number[], phase = 0): number[][] {
  const units = tokenizer.units(ids);
  const out: number[][] = [];
  let at = 0;
  let k = phase;
  while (at < units.length) {
    const size = 1 + (k++ % 2);
    out.push(units.slice(at, at + size).flat());
    at += size;
  }
  return out;
}
