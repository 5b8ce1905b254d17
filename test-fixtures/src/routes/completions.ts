// POST /v1/completions — the legacy text completion API (plain and streamed), vLLM-style token ids on each
// choice (`prompt_token_ids`, `token_ids`) and the flat legacy logprobs shape.
import type { ServerResponse } from 'node:http';
import { type Generation, steps } from '../generation.js';
import { deterministicId } from '../hash.js';
import { HttpError, sendError, sendJson } from '../http.js';
import { legacyLogprobs } from '../logprobs.js';
import { completionRequests } from '../requests.js';
import { SseWriter } from '../sse.js';
import type { JsonObject } from '../types.js';
import { choiceCount, includeUsage, type RouteContext, usage } from './context.js';

function topLogprobs(body: JsonObject): number | undefined {
  const lp = body.logprobs;
  if (lp === undefined || lp === null || lp === false) return undefined;
  if (lp === true) return 0;
  if (typeof lp !== 'number' || !Number.isInteger(lp) || lp < 0 || lp > 20) {
    throw new HttpError(
      400,
      `logprobs: expected an integer from 0 to 20, got ${JSON.stringify(lp)}`,
      'logprobs',
    );
  }
  return lp;
}

/** The completion text: everything generated except the end-of-turn token. */
function text(gen: Generation): string {
  return gen.segments
    .filter((s) => s.kind !== 'eos')
    .map((s) => s.text)
    .join('');
}

export async function completions(
  ctx: RouteContext,
  body: JsonObject,
  res: ServerResponse,
): Promise<void> {
  const reqs = completionRequests(body, {
    path: ctx.path,
    headers: ctx.headers,
    tokenizer: ctx.tokenizer,
  });
  const n = choiceCount(body);
  const top = topLogprobs(body);
  const returnIds = body.return_token_ids === true;
  const result = await ctx.engine.run(reqs, n);
  if ('error' in result) return sendError(res, result.error);
  const id = deterministicId('cmpl-', result.requestHash, result.callIndex);
  const model = reqs[0]!.model;
  const choices = result.generations.flatMap((gens, p) =>
    gens.map((gen, i) => ({ gen, index: p * n + i, promptIds: reqs[p]!.promptTokenIds })),
  );
  const promptTokens = reqs.reduce((total, r) => total + r.promptTokenIds.length, 0);
  const completionTokens = choices.reduce((total, c) => total + c.gen.tokenIds.length, 0);
  const base = { id, object: 'text_completion', created: ctx.created, model };

  if (body.stream !== true) {
    sendJson(res, 200, {
      ...base,
      choices: choices.map(({ gen, index, promptIds }) => ({
        index,
        text: text(gen),
        logprobs: top === undefined ? null : legacyLogprobs(ctx.tokenizer, gen.tokenIds, 0, top, 0),
        finish_reason: gen.finishReason,
        stop_reason: gen.stopReason,
        ...(returnIds ? { prompt_token_ids: promptIds, token_ids: gen.tokenIds } : {}),
      })),
      usage: usage(promptTokens, completionTokens),
    });
    return;
  }

  const sse = new SseWriter(res, ctx.chunkDelayMs);
  const withUsage = includeUsage(body);
  for (const { gen, index, promptIds } of choices) {
    const parts = steps(ctx.tokenizer, gen.tokenIds);
    if (parts.length === 0) parts.push([]);
    // The end-of-turn token is in token_ids but not in the text.
    const eosAt = gen.segments.at(-1)?.kind === 'eos' ? gen.tokenIds.length - 1 : -1;
    let position = 0;
    let offset = 0;
    for (const [i, ids] of parts.entries()) {
      const last = i === parts.length - 1;
      const chunkText = ctx.tokenizer.decode(ids.filter((_, k) => position + k !== eosAt));
      const logprobs =
        top === undefined ? null : legacyLogprobs(ctx.tokenizer, ids, position, top, offset);
      position += ids.length;
      offset += chunkText.length;
      await sse.send({
        ...base,
        choices: [
          {
            index,
            text: chunkText,
            logprobs,
            finish_reason: last ? gen.finishReason : null,
            stop_reason: last ? gen.stopReason : null,
            ...(returnIds
              ? { token_ids: ids, ...(i === 0 ? { prompt_token_ids: promptIds } : {}) }
              : {}),
          },
        ],
        ...(withUsage ? { usage: null } : {}),
      });
    }
  }
  if (withUsage)
    await sse.send({ ...base, choices: [], usage: usage(promptTokens, completionTokens) });
  sse.done();
}
