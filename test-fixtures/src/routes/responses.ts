// POST /v1/responses — plain and streamed (typed SSE events, no [DONE]).
// Token ids (fixture extension, with `return_token_ids: true`): `prompt_token_ids` on the response object and
// `token_ids` on every output item (the final <|im_end|> belongs to the last item), and on streamed deltas.
import type { ServerResponse } from 'node:http';
import { type Generation, type GenSegment, steps } from '../generation.js';
import { deterministicId } from '../hash.js';
import { sendError, sendJson } from '../http.js';
import { chatLogprobs } from '../logprobs.js';
import { responsesRequest } from '../requests.js';
import { SseWriter } from '../sse.js';
import type { FixtureRequest, JsonObject } from '../types.js';
import type { RouteContext } from './context.js';

interface ItemPlan {
  item: JsonObject;
  /** Ids of the streamed part (message text / arguments), with their text. */
  body: { ids: number[]; text: string }[];
  ids: number[];
  position: number;
}

interface ResponsesOptions {
  returnIds: boolean;
  topLogprobs: number | undefined;
}

function options(body: JsonObject): ResponsesOptions {
  const include = Array.isArray(body.include) ? body.include : [];
  const wantLogprobs = include.includes('message.output_text.logprobs');
  const top = typeof body.top_logprobs === 'number' ? body.top_logprobs : 0;
  return { returnIds: body.return_token_ids === true, topLogprobs: wantLogprobs ? top : undefined };
}

/** Output items of a generation: a message (when there is text or nothing else) and function calls. */
function plan(
  ctx: RouteContext,
  gen: Generation,
  seed: string,
  opts: ResponsesOptions,
): ItemPlan[] {
  const items: ItemPlan[] = [];
  const content = gen.segments.filter((s) => s.kind === 'content');
  let position = 0;
  if (content.length > 0 || gen.toolCalls.length === 0) {
    const ids = content.flatMap((s) => s.ids);
    const text = gen.content ?? '';
    const logprobs =
      opts.topLogprobs === undefined ? [] : chatLogprobs(ctx.tokenizer, ids, 0, opts.topLogprobs);
    const part = { type: 'output_text', text, annotations: [], logprobs };
    const item = {
      type: 'message',
      id: deterministicId('msg_', seed, 0),
      status: 'completed',
      role: 'assistant',
      content: [part],
    };
    items.push({ item, body: content.map((s) => ({ ids: s.ids, text: s.text })), ids, position });
    position += ids.length;
  }
  gen.toolCalls.forEach((call, k) => {
    const segs = gen.segments.filter((s: GenSegment) => s.toolIndex === k && s.kind !== 'content');
    const ids = segs.flatMap((s) => s.ids);
    const args = segs.filter((s) => s.kind === 'tool_args');
    const item = {
      type: 'function_call',
      id: deterministicId('fc_', seed, k),
      call_id: call.id,
      name: call.name,
      arguments: call.arguments,
      status: 'completed',
    };
    items.push({
      item,
      body: args.map((s) => ({ ids: s.ids, text: call.arguments })),
      ids,
      position,
    });
    position += ids.length;
  });
  const eos = gen.segments.filter((s) => s.kind === 'eos').flatMap((s) => s.ids);
  items.at(-1)?.ids.push(...eos);
  if (opts.returnIds) for (const p of items) p.item.token_ids = p.ids;
  return items;
}

function responseObject(
  req: FixtureRequest,
  id: string,
  created: number,
  gen: Generation | undefined,
  items: ItemPlan[],
  opts: ResponsesOptions,
): JsonObject {
  const body = req.body;
  const output = gen ? gen.tokenIds.length : 0;
  return {
    id,
    object: 'response',
    created_at: created,
    status: gen === undefined ? 'in_progress' : gen.truncated ? 'incomplete' : 'completed',
    background: false,
    error: null,
    incomplete_details: gen?.truncated ? { reason: 'max_output_tokens' } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: req.model,
    output: items.map((p) => p.item),
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    store: body.store ?? false,
    temperature: body.temperature ?? 1,
    text: body.text ?? { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: 'disabled',
    usage: gen
      ? {
          input_tokens: req.promptTokenIds.length,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: output,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: req.promptTokenIds.length + output,
        }
      : null,
    user: null,
    metadata: body.metadata ?? {},
    ...(opts.returnIds ? { prompt_token_ids: req.promptTokenIds } : {}),
  };
}

async function streamResponse(
  ctx: RouteContext,
  res: ServerResponse,
  req: FixtureRequest,
  id: string,
  gen: Generation,
  items: ItemPlan[],
  opts: ResponsesOptions,
): Promise<void> {
  const sse = new SseWriter(res, ctx.chunkDelayMs);
  let sequence = 0;
  const emit = (type: string, data: JsonObject) =>
    sse.send({ type, sequence_number: sequence++, ...data }, type);
  const initial = responseObject(req, id, ctx.created, undefined, [], opts);
  await emit('response.created', { response: initial });
  await emit('response.in_progress', { response: initial });
  let phase = 0;
  for (const [output_index, p] of items.entries()) {
    const item_id = p.item.id as string;
    const ids = (extra: number[]) => (opts.returnIds ? { token_ids: extra } : {});
    if (p.item.type === 'message') {
      const done = (p.item.content as JsonObject[])[0]!;
      const empty = { ...done, text: '', logprobs: [] };
      await emit('response.output_item.added', {
        output_index,
        item: { ...p.item, status: 'in_progress', content: [], token_ids: undefined },
      });
      await emit('response.content_part.added', {
        item_id,
        output_index,
        content_index: 0,
        part: empty,
      });
      let position = p.position;
      for (const seg of p.body) {
        for (const step of steps(ctx.tokenizer, seg.ids, phase++)) {
          const logprobs =
            opts.topLogprobs === undefined
              ? []
              : chatLogprobs(ctx.tokenizer, step, position, opts.topLogprobs);
          position += step.length;
          const delta = ctx.tokenizer.decode(step);
          await emit('response.output_text.delta', {
            item_id,
            output_index,
            content_index: 0,
            delta,
            logprobs,
            ...ids(step),
          });
        }
      }
      await emit('response.output_text.done', {
        item_id,
        output_index,
        content_index: 0,
        text: done.text,
        logprobs: done.logprobs,
      });
      await emit('response.content_part.done', {
        item_id,
        output_index,
        content_index: 0,
        part: done,
      });
    } else {
      await emit('response.output_item.added', {
        output_index,
        item: { ...p.item, arguments: '', status: 'in_progress', token_ids: undefined },
      });
      const args = p.item.arguments as string;
      for (const seg of p.body) {
        const parts =
          seg.text === ctx.tokenizer.decode(seg.ids)
            ? steps(ctx.tokenizer, seg.ids, phase++)
            : [seg.ids];
        for (const step of parts) {
          const delta = parts.length === 1 ? args : ctx.tokenizer.decode(step);
          await emit('response.function_call_arguments.delta', {
            item_id,
            output_index,
            delta,
            ...ids(step),
          });
        }
      }
      await emit('response.function_call_arguments.done', {
        item_id,
        output_index,
        name: p.item.name,
        arguments: args,
      });
    }
    await emit('response.output_item.done', { output_index, item: p.item });
  }
  const final = responseObject(req, id, ctx.created, gen, items, opts);
  await emit(gen.truncated ? 'response.incomplete' : 'response.completed', { response: final });
  sse.end();
}

export async function responses(
  ctx: RouteContext,
  body: JsonObject,
  res: ServerResponse,
): Promise<void> {
  const req = responsesRequest(body, {
    path: ctx.path,
    headers: ctx.headers,
    tokenizer: ctx.tokenizer,
  });
  const opts = options(body);
  const result = await ctx.engine.run([req], 1);
  if ('error' in result) return sendError(res, result.error);
  const gen = result.generations[0]![0]!;
  const seed = `${result.requestHash}:${result.callIndex}`;
  const id = deterministicId('resp_', seed);
  const items = plan(ctx, gen, seed, opts);
  if (body.stream === true) return streamResponse(ctx, res, req, id, gen, items, opts);
  sendJson(res, 200, responseObject(req, id, ctx.created, gen, items, opts));
}
