// What every route handler gets from the server.
import type { Engine } from '../engine.js';
import { HttpError } from '../http.js';
import type { FixtureTokenizer } from '../tokenizer.js';
import type { JsonObject } from '../types.js';

export interface RouteContext {
  engine: Engine;
  tokenizer: FixtureTokenizer;
  path: string;
  headers: Record<string, string>;
  /** Unix seconds for `created` / `created_at`. */
  created: number;
  chunkDelayMs: number;
}

/** `n` (choices per prompt), 1 when absent. */
export function choiceCount(body: JsonObject): number {
  const n = body.n ?? 1;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 16) {
    throw new HttpError(400, `n: expected an integer from 1 to 16, got ${JSON.stringify(n)}`, 'n');
  }
  return n;
}

/** Top-logprob count when logprobs were asked for (`logprobs: true` + `top_logprobs`), else undefined. */
export function chatTopLogprobs(body: JsonObject): number | undefined {
  if (body.logprobs !== true) return undefined;
  const top = body.top_logprobs ?? 0;
  if (typeof top !== 'number' || !Number.isInteger(top) || top < 0 || top > 20) {
    throw new HttpError(
      400,
      `top_logprobs: expected an integer from 0 to 20, got ${JSON.stringify(top)}`,
    );
  }
  return top;
}

export function includeUsage(body: JsonObject): boolean {
  const opts = body.stream_options;
  return opts !== null && typeof opts === 'object' && (opts as JsonObject).include_usage === true;
}

export function usage(prompt: number, completion: number) {
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
}
