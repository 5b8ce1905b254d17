// POST /v1/chat/completions — plain and SSE streaming, vLLM-style `return_token_ids` and logprobs.
import type { ServerResponse } from 'node:http';
import { type Generation, steps } from '../generation.js';
import { deterministicId } from '../hash.js';
import { sendError, sendJson } from '../http.js';
import { chatLogprobs } from '../logprobs.js';
import { chatRequest } from '../requests.js';
import { SseWriter } from '../sse.js';
import type { FixtureTokenizer } from '../tokenizer.js';
import type { JsonObject } from '../types.js';
import { chatTopLogprobs, choiceCount, includeUsage, type RouteContext, usage } from './context.js';

interface ChatOptions {
  returnIds: boolean;
  topLogprobs: number | undefined;
}

function toolCallsWire(gen: Generation) {
  return gen.toolCalls.map((c) => ({
    id: c.id,
    type: 'function' as const,
    function: { name: c.name, arguments: c.arguments },
  }));
}

function plainChoice(
  ctx: RouteContext,
  gen: Generation,
  index: number,
  opts: ChatOptions,
): JsonObject {
  const logprobs =
    opts.topLogprobs === undefined
      ? null
      : { content: chatLogprobs(ctx.tokenizer, gen.tokenIds, 0, opts.topLogprobs) };
  return {
    index,
    message: {
      role: 'assistant',
      content: gen.content,
      refusal: null,
      tool_calls: toolCallsWire(gen),
      reasoning_content: null,
    },
    logprobs,
    finish_reason: gen.finishReason,
    stop_reason: gen.stopReason,
    ...(opts.returnIds ? { token_ids: gen.tokenIds } : {}),
  };
}

/** The streamed deltas of one choice: [delta, ids] pairs, ids concatenating to gen.tokenIds. */
function deltas(tokenizer: FixtureTokenizer, gen: Generation): [JsonObject, number[]][] {
  const out: [JsonObject, number[]][] = [];
  let pending: number[] = [];
  let phase = 0;
  const take = (ids: number[]) => {
    const all = [...pending, ...ids];
    pending = [];
    return all;
  };
  for (const seg of gen.segments) {
    const k = seg.toolIndex ?? 0;
    const call = gen.toolCalls[k];
    if (seg.kind === 'content') {
      for (const ids of steps(tokenizer, seg.ids, phase++))
        out.push([{ content: tokenizer.decode(ids) }, take(ids)]);
    } else if (seg.kind === 'tool_header' && call) {
      const delta = {
        index: k,
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: '' },
      };
      out.push([{ tool_calls: [delta] }, take(seg.ids)]);
    } else if (seg.kind === 'tool_args' && call) {
      // Arguments that are not JSON were quoted in the raw text; send them whole.
      const parts = seg.text === call.arguments ? steps(tokenizer, seg.ids, phase++) : [seg.ids];
      for (const ids of parts) {
        const fragment = parts.length === 1 ? call.arguments : tokenizer.decode(ids);
        out.push([{ tool_calls: [{ index: k, function: { arguments: fragment } }] }, take(ids)]);
      }
    } else {
      // Footers and <|im_end|> carry no delta text: their ids ride on the next (or the final) chunk.
      pending.push(...seg.ids);
    }
  }
  out.push([{}, take([])]);
  return out;
}

async function streamChat(
  ctx: RouteContext,
  res: ServerResponse,
  base: JsonObject,
  gens: Generation[],
  promptIds: number[],
  body: JsonObject,
  opts: ChatOptions,
): Promise<void> {
  const sse = new SseWriter(res, ctx.chunkDelayMs);
  const withUsage = includeUsage(body);
  const chunk = (choice: JsonObject, extra: JsonObject = {}) => ({
    ...base,
    choices: [choice],
    ...(withUsage ? { usage: null } : {}),
    ...extra,
  });
  for (const [index, gen] of gens.entries()) {
    const first = chunk(
      {
        index,
        delta: { role: 'assistant', content: '' },
        logprobs: null,
        finish_reason: null,
        ...(opts.returnIds ? { token_ids: [] } : {}),
      },
      opts.returnIds && index === 0 ? { prompt_token_ids: promptIds } : {},
    );
    await sse.send(first);
    const all = deltas(ctx.tokenizer, gen);
    let position = 0;
    for (const [i, [delta, ids]] of all.entries()) {
      const last = i === all.length - 1;
      const logprobs =
        opts.topLogprobs === undefined
          ? null
          : { content: chatLogprobs(ctx.tokenizer, ids, position, opts.topLogprobs) };
      position += ids.length;
      await sse.send(
        chunk({
          index,
          delta,
          logprobs,
          finish_reason: last ? gen.finishReason : null,
          ...(last ? { stop_reason: gen.stopReason } : {}),
          ...(opts.returnIds ? { token_ids: ids } : {}),
        }),
      );
    }
  }
  if (withUsage) {
    const completion = gens.reduce((n, g) => n + g.tokenIds.length, 0);
    await sse.send({ ...base, choices: [], usage: usage(promptIds.length, completion) });
  }
  sse.done();
}

export async function chatCompletions(
  ctx: RouteContext,
  body: JsonObject,
  res: ServerResponse,
): Promise<void> {
  const req = chatRequest(body, { path: ctx.path, headers: ctx.headers, tokenizer: ctx.tokenizer });
  const n = choiceCount(body);
  const opts: ChatOptions = {
    returnIds: body.return_token_ids === true,
    topLogprobs: chatTopLogprobs(body),
  };
  const result = await ctx.engine.run([req], n);
  if ('error' in result) return sendError(res, result.error);
  const gens = result.generations[0]!;
  const id = deterministicId('chatcmpl-', result.requestHash, result.callIndex);
  const promptIds = req.promptTokenIds;
  if (body.stream === true) {
    const base = { id, object: 'chat.completion.chunk', created: ctx.created, model: req.model };
    return streamChat(ctx, res, base, gens, promptIds, body, opts);
  }
  const completion = gens.reduce((total, g) => total + g.tokenIds.length, 0);
  sendJson(res, 200, {
    id,
    object: 'chat.completion',
    created: ctx.created,
    model: req.model,
    choices: gens.map((g, i) => plainChoice(ctx, g, i, opts)),
    usage: usage(promptIds.length, completion),
    system_fingerprint: null,
    service_tier: null,
    prompt_logprobs: null,
    ...(opts.returnIds ? { prompt_token_ids: promptIds } : {}),
  });
}
