// The fixture server: node:http, routing, request log, responder chain.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Engine } from './engine.js';
import { HttpError, lowerHeaders, parseJsonObject, readBody, sendError } from './http.js';
import { defaultRecordingsPath, loadRecordings } from './recordings.js';
import { DEFAULT_MODEL } from './requests.js';
import { echoResponder } from './responders/echo.js';
import { errorResponder } from './responders/error.js';
import { replayResponder } from './responders/replay.js';
import { TOOLS_MODEL, toolCallResponder } from './responders/tools.js';
import { chatCompletions } from './routes/chat.js';
import { completions } from './routes/completions.js';
import type { RouteContext } from './routes/context.js';
import { getModel, listModels } from './routes/models.js';
import { responses } from './routes/responses.js';
import { FixtureTokenizer, type TokenizerVocabulary, tokenizerVocabulary } from './tokenizer.js';
import type { JsonObject, RecordedRequest, Responder } from './types.js';

/** `created` / `created_at` of every response unless overridden: fixed, so bytes are reproducible. */
export const DEFAULT_CREATED = 1_750_000_000;

export interface FixtureLlmOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Custom responders, tried after error-on-demand and before the other built-ins. */
  responders?: Responder[];
  /** Recordings JSONL path; default: `<repo>/../shared/fixtures/openai-chat-recordings.jsonl`; false: none. */
  recordings?: string | false;
  /** Delay before each response (ms). */
  latencyMs?: number;
  /** Delay before each SSE event (ms). */
  chunkDelayMs?: number;
  /** Models listed by GET /v1/models (any model name is accepted for generation). */
  models?: string[];
  /** Unix seconds used as `created`; default DEFAULT_CREATED. */
  created?: number;
  /**
   * The tokenizer's vocabulary: `chunks` (ids up to ~4.1M) or `bytes` (one id per UTF-8 byte, < 272, for
   * training a tiny model on the recorded ids). Default: `ARCLIGHT_FIXTURE_TOKENIZER`, else `chunks`.
   */
  tokenizer?: TokenizerVocabulary;
}

/** The environment variable that picks the fixture tokenizer when `startFixtureLlm` is not told. */
export const FIXTURE_TOKENIZER_ENV = 'ARCLIGHT_FIXTURE_TOKENIZER';

export interface FixtureLlm {
  /** `http://host:port/v1` — the OpenAI client's baseURL. */
  readonly baseUrl: string;
  /** `http://host:port` */
  readonly url: string;
  readonly port: number;
  readonly tokenizer: FixtureTokenizer;
  /** Every received request, in arrival order (cleared by `reset()`). */
  readonly requests: RecordedRequest[];
  /** The full responder chain, in match order. */
  readonly responders: readonly Responder[];
  /** Adds responders in front of the configured ones (removed by `reset()`). */
  use(...responders: Responder[]): void;
  /** Clears the request log, the call counter and responders added with `use()`. */
  reset(): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function normalizePath(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0]!.replace(/\/{2,}/g, '/');
  return path.length > 1 ? path.replace(/\/$/, '') : path;
}

type Route = (ctx: RouteContext, body: JsonObject, res: ServerResponse) => Promise<void>;
const POST_ROUTES: Record<string, Route> = {
  '/v1/chat/completions': chatCompletions,
  '/v1/responses': responses,
  '/v1/completions': completions,
};

export async function startFixtureLlm(options: FixtureLlmOptions = {}): Promise<FixtureLlm> {
  const tokenizer = new FixtureTokenizer({
    vocabulary:
      options.tokenizer ??
      tokenizerVocabulary(process.env[FIXTURE_TOKENIZER_ENV], FIXTURE_TOKENIZER_ENV),
  });
  const recordingsPath =
    options.recordings === false ? undefined : (options.recordings ?? defaultRecordingsPath());
  const recordings = recordingsPath ? loadRecordings(recordingsPath) : new Map();
  const configured = options.responders ?? [];
  const builtins = [
    toolCallResponder,
    ...(recordings.size > 0 ? [replayResponder(recordings)] : []),
    echoResponder,
  ];
  let added: Responder[] = [];
  const chain = (): Responder[] => [errorResponder, ...added, ...configured, ...builtins];
  const engine = new Engine(tokenizer, chain);
  const requests: RecordedRequest[] = [];
  const models = options.models ?? [DEFAULT_MODEL, TOOLS_MODEL];
  const created = options.created ?? DEFAULT_CREATED;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = normalizePath(req.url);
    const method = req.method ?? 'GET';
    const headers = lowerHeaders(req);
    const text = await readBody(req);
    const entry: RecordedRequest = { method, path, body: undefined, headers };
    requests.push(entry);
    if (text) {
      try {
        entry.body = JSON.parse(text);
      } catch {
        entry.body = text;
      }
    }
    if (options.latencyMs) await sleep(options.latencyMs);
    if (method === 'GET' && path === '/health') {
      res.writeHead(200).end();
      return;
    }
    if (method === 'GET' && path === '/v1/models') return listModels(res, models, created);
    if (method === 'GET' && path.startsWith('/v1/models/')) {
      return getModel(res, models, decodeURIComponent(path.slice('/v1/models/'.length)), created);
    }
    const route = POST_ROUTES[path];
    if (!route) throw new HttpError(404, `Unknown path: ${method} ${path}`);
    if (method !== 'POST') throw new HttpError(405, `Method ${method} is not allowed on ${path}`);
    const body = parseJsonObject(text);
    await route(
      { engine, tokenizer, path, headers, created, chunkDelayMs: options.chunkDelayMs ?? 0 },
      body,
      res,
    );
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      const status = e instanceof HttpError ? e.status : 500;
      const message = e instanceof Error ? e.message : String(e);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendError(res, { status, message, param: e instanceof HttpError ? e.param : null });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  return {
    baseUrl: `${url}/v1`,
    url,
    port: address.port,
    tokenizer,
    requests,
    get responders() {
      return chain();
    },
    use(...responders) {
      added = [...responders, ...added];
    },
    reset() {
      requests.length = 0;
      added = [];
      engine.reset();
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
