import { isRecord } from '@arclight/core';
import { safely } from './safely.js';

/** The OpenAI-protocol endpoints that return token ids when asked (chat, responses, legacy completions). */
const TOKEN_ID_ENDPOINTS = /\/(chat\/completions|responses|completions)$/;

/**
 * A `fetch` for AI SDK providers whose provider options cannot carry `return_token_ids` (`@ai-sdk/openai`
 * validates them): it adds `return_token_ids: true` to every JSON request to a chat, responses or completions
 * endpoint that does not set it, so vLLM (>= 0.10.2) returns the token ids `withArclight(model)` then reads.
 *
 * ```ts
 * const openai = createOpenAI({ baseURL: 'http://localhost:8000/v1', fetch: tokenIdsFetch() });
 * const model = withArclight(openai('Qwen/Qwen2.5-0.5B-Instruct'));
 * ```
 */
export function tokenIdsFetch(base: typeof fetch = globalThis.fetch): typeof fetch {
  return (input, init) =>
    base(
      input,
      safely('token-id request', () => withTokenIds(input, init), init),
    );
}

function withTokenIds(
  input: Parameters<typeof fetch>[0],
  init: Parameters<typeof fetch>[1],
): Parameters<typeof fetch>[1] {
  if (typeof init?.body !== 'string') return init;
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (!TOKEN_ID_ENDPOINTS.test(new URL(url).pathname)) return init;
  const body: unknown = JSON.parse(init.body);
  if (!isRecord(body) || body.return_token_ids !== undefined) return init;
  return { ...init, body: JSON.stringify({ ...body, return_token_ids: true }) };
}
