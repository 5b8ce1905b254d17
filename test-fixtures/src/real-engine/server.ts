// The real-engine server: an OpenAI-compatible (vLLM-style) HTTP server in front of a real model. Every id it reports
// is an id the model consumed (the tokenized prompt) or sampled — never text re-tokenized after the fact.
//   POST /v1/chat/completions  messages (+ tools), stream or not, `return_token_ids`, `logprobs`/`top_logprobs`
//   POST /v1/completions       prompt as text or as token ids, stream or not, `return_token_ids`, `logprobs`
//   GET  /v1/models
//   POST /tokenize             vLLM's: `messages` (+ `tools`, `add_generation_prompt`) or `prompt` → `tokens`
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpError, parseJsonObject, readBody, sendError, sendJson } from '../http.js';
import { SseWriter } from '../sse.js';
import type { JsonObject } from '../types.js';
import {
  forcedToolCallPrefix,
  parseToolCalls,
  streamableContentLength,
  templateMessages,
} from './chat.js';
import { ensureRealModel, type RealModelFiles } from './locate.js';
import { type LoadOptions, RealModel, type SampledToken, type SampleOptions } from './model.js';

export const REAL_MODEL_NAME = 'SmolLM2-135M-Instruct';

export interface RealEngineOptions extends LoadOptions {
  host?: string;
  port?: number;
  /** Engine and model files; default: `ensureRealModel()`. */
  files?: RealModelFiles;
  /** Name served by /v1/models (any requested name is accepted). */
  modelName?: string;
}

export interface RealEngine {
  /** `http://host:port/v1` — an OpenAI client's baseURL. */
  readonly baseUrl: string;
  readonly url: string;
  readonly model: RealModel;
  close(): Promise<void>;
}

interface Request {
  promptIds: number[];
  sample: SampleOptions;
  stream: boolean;
  includeUsage: boolean;
  returnIds: boolean;
  logprobs: boolean;
  tools: boolean;
  model: string;
}

const CREATED = 1_750_000_000;
const POST_ROUTES = ['/v1/chat/completions', '/v1/completions', '/tokenize'];

function intField(body: JsonObject, names: string[], fallback: number, min: number): number {
  for (const name of names) {
    const value = body[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      throw new HttpError(400, `${name} must be an integer >= ${min}`, name);
    }
    return value;
  }
  return fallback;
}

function numberField(body: JsonObject, name: string): number | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new HttpError(400, `${name} must be a non-negative number`, name);
  }
  return value;
}

function commonRequest(
  body: JsonObject,
  promptIds: number[],
  tools: boolean,
  chat: boolean,
): Request {
  if (intField(body, ['n'], 1, 1) !== 1)
    throw new HttpError(400, 'n > 1 is not supported by the real engine', 'n');
  const topLogprobs = chat
    ? body.logprobs === true
      ? intField(body, ['top_logprobs'], 0, 0)
      : 0
    : intField(body, ['logprobs'], 0, 0);
  const seed =
    body.seed === undefined || body.seed === null ? undefined : intField(body, ['seed'], 0, 0);
  const topP = numberField(body, 'top_p');
  return {
    promptIds,
    sample: {
      maxTokens: intField(body, ['max_completion_tokens', 'max_tokens'], chat ? 256 : 16, 1),
      temperature: numberField(body, 'temperature') ?? 1,
      ...(topP !== undefined ? { topP } : {}),
      ...(seed !== undefined ? { seed } : {}),
      topLogprobs,
    },
    stream: body.stream === true,
    includeUsage: (body.stream_options as JsonObject | undefined)?.include_usage === true,
    returnIds: body.return_token_ids === true,
    logprobs: chat ? body.logprobs === true : body.logprobs !== undefined && body.logprobs !== null,
    tools,
    model: typeof body.model === 'string' ? body.model : REAL_MODEL_NAME,
  };
}

export async function startRealEngine(options: RealEngineOptions = {}): Promise<RealEngine> {
  const model = await RealModel.load(options.files ?? ensureRealModel(), options);
  const modelName = options.modelName ?? REAL_MODEL_NAME;
  let calls = 0;

  const piece = (id: number) => model.detokenize([id]);
  const usage = (req: Request, completion: number) => ({
    prompt_tokens: req.promptIds.length,
    completion_tokens: completion,
    total_tokens: req.promptIds.length + completion,
  });
  const finishReason = (stopped: boolean, toolCalls: number) =>
    toolCalls > 0 ? 'tool_calls' : stopped ? 'stop' : 'length';
  const chatLogprob = (t: SampledToken) => ({
    token: piece(t.id),
    logprob: t.logprob,
    bytes: [...Buffer.from(piece(t.id))],
    top_logprobs: t.top.map((a) => ({
      token: piece(a.id),
      logprob: a.logprob,
      bytes: [...Buffer.from(piece(a.id))],
    })),
  });
  /** Generated text without the stop token the model ended on. */
  const textOf = (tokens: SampledToken[], stopped: boolean) =>
    model.detokenize((stopped ? tokens.slice(0, -1) : tokens).map((t) => t.id));

  function chatRequest(body: JsonObject): Request {
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      throw new HttpError(400, 'messages must be a non-empty array', 'messages');
    }
    const tools =
      Array.isArray(body.tools) && body.tools.length > 0 ? (body.tools as unknown[]) : undefined;
    const prompt = model.render(templateMessages(body.messages as JsonObject[], tools), true);
    const req = commonRequest(body, model.tokenize(prompt), tools !== undefined, true);
    // tool_choice required/named: the reply starts with the tool call's opening, as vLLM's guided decoding forces it.
    const forced = forcedToolCallPrefix(body.tool_choice, tools);
    if (forced) {
      req.sample.forced = model.tokenize(forced);
      req.sample.endAfter = '</tool_call>';
    }
    return req;
  }

  /** vLLM's POST /tokenize: the ids a chat call (or a text prompt) would feed the model. */
  function tokenize(body: JsonObject): JsonObject {
    let tokens: number[];
    if (Array.isArray(body.messages)) {
      const tools =
        Array.isArray(body.tools) && body.tools.length > 0 ? (body.tools as unknown[]) : undefined;
      const text = model.render(
        templateMessages(body.messages as JsonObject[], tools),
        body.add_generation_prompt !== false,
      );
      tokens = model.tokenize(text);
    } else if (typeof body.prompt === 'string') tokens = model.tokenize(body.prompt);
    else
      throw new HttpError(
        400,
        'tokenize needs messages (an array) or prompt (a string)',
        'messages',
      );
    return { tokens, count: tokens.length, max_model_len: model.contextSize };
  }

  function completionRequest(body: JsonObject): Request {
    const prompt = body.prompt;
    let ids: number[];
    if (typeof prompt === 'string') ids = model.tokenize(prompt);
    else if (
      Array.isArray(prompt) &&
      prompt.length > 0 &&
      prompt.every((x) => Number.isInteger(x) && x >= 0)
    ) {
      ids = prompt as number[];
    } else
      throw new HttpError(
        400,
        'prompt must be a string or a non-empty array of token ids',
        'prompt',
      );
    return commonRequest(body, ids, false, false);
  }

  async function chat(req: Request, res: ServerResponse): Promise<void> {
    const id = `chatcmpl-real-${++calls}`;
    const head = { id, object: 'chat.completion', created: CREATED, model: req.model };
    if (!req.stream) {
      const { tokens, stopped } = await model.generate(req.promptIds, req.sample);
      const { content, calls: toolCalls } = req.tools
        ? parseToolCalls(textOf(tokens, stopped), id)
        : { content: textOf(tokens, stopped), calls: [] };
      sendJson(res, 200, {
        ...head,
        ...(req.returnIds ? { prompt_token_ids: req.promptIds } : {}),
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: toolCalls.length > 0 && content === '' ? null : content,
              tool_calls: toolCalls.map((c) => ({
                id: c.id,
                type: 'function',
                function: { name: c.name, arguments: c.arguments },
              })),
            },
            logprobs: req.logprobs ? { content: tokens.map(chatLogprob) } : null,
            finish_reason: finishReason(stopped, toolCalls.length),
            ...(req.returnIds ? { token_ids: tokens.map((t) => t.id) } : {}),
          },
        ],
        usage: usage(req, tokens.length),
      });
      return;
    }
    const sse = new SseWriter(res);
    const chunk = (choice: JsonObject, extra: JsonObject = {}) =>
      sse.send({
        ...head,
        object: 'chat.completion.chunk',
        ...extra,
        choices: [{ index: 0, logprobs: null, finish_reason: null, ...choice }],
      });
    await chunk(
      { delta: { role: 'assistant', content: '' } },
      req.returnIds ? { prompt_token_ids: req.promptIds } : {},
    );
    const sampled: number[] = [];
    let sent = 0;
    const { tokens, stopped } = await model.generate(
      req.promptIds,
      req.sample,
      async (t) => {
        sampled.push(t.id);
        const isStop = model.isStop(t.id);
        const text = model.detokenize(isStop ? sampled.slice(0, -1) : sampled);
        // Hold back an incomplete UTF-8 sequence and anything that may be the start of a tool call.
        let upTo = streamableContentLength(text, req.tools);
        if (text.endsWith('\uFFFD') && !isStop) upTo = Math.min(upTo, text.length - 1);
        const delta = upTo > sent ? text.slice(sent, upTo) : '';
        sent = Math.max(sent, upTo);
        await chunk({
          delta: delta ? { content: delta } : {},
          ...(req.logprobs ? { logprobs: { content: [chatLogprob(t)] } } : {}),
          ...(req.returnIds ? { token_ids: [t.id] } : {}),
        });
      },
      () => !sse.open,
    );
    const text = textOf(tokens, stopped);
    const { calls: toolCalls, content } = req.tools
      ? parseToolCalls(text, id)
      : { calls: [], content: text };
    // What the non-streaming answer would hold as content; send whatever of it was held back.
    const expected = toolCalls.length > 0 ? content : text;
    if (expected.length > sent && expected.startsWith(text.slice(0, sent))) {
      await chunk({ delta: { content: expected.slice(sent) } });
    }
    if (toolCalls.length > 0) {
      await chunk({
        delta: {
          tool_calls: toolCalls.map((c, index) => ({
            index,
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: c.arguments },
          })),
        },
      });
    }
    await chunk({ delta: {}, finish_reason: finishReason(stopped, toolCalls.length) });
    if (req.includeUsage) {
      await sse.send({
        ...head,
        object: 'chat.completion.chunk',
        choices: [],
        usage: usage(req, tokens.length),
      });
    }
    sse.done();
  }

  async function complete(req: Request, res: ServerResponse): Promise<void> {
    const id = `cmpl-real-${++calls}`;
    const head = { id, object: 'text_completion', created: CREATED, model: req.model };
    const legacyLogprobs = (tokens: SampledToken[]) => ({
      tokens: tokens.map((t) => piece(t.id)),
      token_logprobs: tokens.map((t) => t.logprob),
      top_logprobs: tokens.map((t) =>
        Object.fromEntries(t.top.map((a) => [piece(a.id), a.logprob])),
      ),
      text_offset: [] as number[],
    });
    if (!req.stream) {
      const { tokens, stopped } = await model.generate(req.promptIds, req.sample);
      sendJson(res, 200, {
        ...head,
        choices: [
          {
            index: 0,
            text: textOf(tokens, stopped),
            logprobs: req.logprobs ? legacyLogprobs(tokens) : null,
            finish_reason: stopped ? 'stop' : 'length',
            ...(req.returnIds
              ? { prompt_token_ids: req.promptIds, token_ids: tokens.map((t) => t.id) }
              : {}),
          },
        ],
        usage: usage(req, tokens.length),
      });
      return;
    }
    const sse = new SseWriter(res);
    const sampled: number[] = [];
    let sent = 0;
    let first = true;
    const { tokens, stopped } = await model.generate(
      req.promptIds,
      req.sample,
      async (t) => {
        sampled.push(t.id);
        const isStop = model.isStop(t.id);
        const text = model.detokenize(isStop ? sampled.slice(0, -1) : sampled);
        const upTo = text.endsWith('\uFFFD') && !isStop ? text.length - 1 : text.length;
        const delta = upTo > sent ? text.slice(sent, upTo) : '';
        sent = Math.max(sent, upTo);
        await sse.send({
          ...head,
          choices: [
            {
              index: 0,
              text: delta,
              logprobs: req.logprobs ? legacyLogprobs([t]) : null,
              finish_reason: null,
              ...(req.returnIds
                ? { token_ids: [t.id], ...(first ? { prompt_token_ids: req.promptIds } : {}) }
                : {}),
            },
          ],
        });
        first = false;
      },
      () => !sse.open,
    );
    await sse.send({
      ...head,
      choices: [{ index: 0, text: '', logprobs: null, finish_reason: stopped ? 'stop' : 'length' }],
    });
    if (req.includeUsage)
      await sse.send({ ...head, choices: [], usage: usage(req, tokens.length) });
    sse.done();
  }

  const server = createServer(async (request, res) => {
    try {
      const path = (request.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
      if (request.method === 'GET' && path === '/v1/models') {
        sendJson(res, 200, {
          object: 'list',
          data: [
            {
              id: modelName,
              object: 'model',
              created: CREATED,
              owned_by: 'arclight-real-engine',
              max_model_len: model.contextSize,
            },
          ],
        });
        return;
      }
      if (request.method !== 'POST' || !POST_ROUTES.includes(path)) {
        throw new HttpError(404, `no route ${request.method} ${path}`);
      }
      const body = parseJsonObject(await readBody(request));
      if (path === '/tokenize') sendJson(res, 200, tokenize(body));
      else if (path === '/v1/chat/completions') await chat(chatRequest(body), res);
      else await complete(completionRequest(body), res);
    } catch (error) {
      if (res.headersSent) {
        res.destroy(error as Error);
        return;
      }
      const status =
        error instanceof HttpError ? error.status : error instanceof RangeError ? 400 : 500;
      const param = error instanceof HttpError ? error.param : null;
      sendError(res, { status, message: (error as Error).message, param });
    }
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  return {
    baseUrl: `http://${host}:${port}/v1`,
    url: `http://${host}:${port}`,
    model,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await model.close();
    },
  };
}
