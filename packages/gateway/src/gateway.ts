import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  asRecord,
  isRecord,
  type JsonRecord,
  OPENAI_API_ENDPOINTS,
  type OpenAIApiEndpoint,
  ProxyLLM,
} from '@arclight/core';
import { LightningTracer } from '@arclight/otel';
import type { LightningStore } from '@arclight/store';
import type { Tracer } from '@opentelemetry/api';
import {
  anthropicError,
  chatToMessage,
  MessagesStreamTranslator,
  messagesRequestProblem,
  messagesToChat,
} from './anthropic-messages.js';
import { type Backend, BackendPool } from './backend-pool.js';
import { ForwardError, type ForwardResult, forward } from './forwarder.js';
import {
  type GatewayOptions,
  type ResolvedGatewayOptions,
  resolveGatewayOptions,
} from './options.js';
import { type GatewayState, PauseGate, type PauseMode } from './pause-gate.js';
import { CallRecorder, GatewayAttributes, type PartialReason } from './recording/call-recorder.js';
import { parseRoute, type RouteTarget } from './route.js';
import { eventJson, SseParser } from './sse-parser.js';

/** Scope name of the gateway's spans. */
export const GATEWAY_SCOPE = 'arclight.gateway';
const PASSED_HEADERS = ['accept', 'user-agent', 'x-request-id'];
const MODE_CACHE_LIMIT = 10_000;

/** A client-facing failure with its HTTP status and OpenAI error type. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = 'invalid_request_error',
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

interface CallContext {
  req: IncomingMessage;
  res: ServerResponse;
  rolloutId?: string;
  attemptId?: string;
  /** Aborted when the client goes away (or a timeout fires). */
  abort: AbortController;
}

/**
 * The LLM gateway: an OpenAI/Anthropic-compatible HTTP server in front of vLLM-like backends that records
 * every call made inside a rollout as a span (the `@arclight/instrumentation-openai` layout, with token ids), streams
 * natively, balances and retries across backends, and pauses around weight updates. See the README.
 */
export class LlmGateway {
  readonly options: ResolvedGatewayOptions;
  readonly pool: BackendPool;
  readonly tracer: LightningTracer;
  private readonly ownTracer: boolean;
  private readonly otelTracer: Tracer;
  private readonly gate = new PauseGate();
  private readonly store: LightningStore | null;
  private readonly modes = new Map<string, string | null>();
  private server: Server | undefined;
  private address: AddressInfo | undefined;

  constructor(options: GatewayOptions) {
    this.options = resolveGatewayOptions(options);
    this.pool = new BackendPool(options.backends);
    this.store = options.store ?? null;
    this.ownTracer = options.tracer === undefined;
    this.tracer =
      options.tracer ??
      new LightningTracer({
        store: options.store,
        otlpEndpoint: options.otlpEndpoint,
        otlpHeaders: options.otlpHeaders,
        serviceName: 'arclight-gateway',
        activate: false,
        // Each call's spans are written before its rollout context ends (right after the client got the
        // answer), so a rollout the agent finishes next already has them: an algorithm reading a finished
        // rollout (APO's textual gradient) otherwise sees its LLM calls only when the export happened to win.
        flushOnContextEnd: true,
        logger: { warn: (message: string) => this.options.logger(`gateway tracer: ${message}`) },
      });
    this.otelTracer = this.tracer.getTracer(GATEWAY_SCOPE);
  }

  /** Starts listening; resolves with the gateway's base URL (`http://host:port`). */
  async start(): Promise<string> {
    if (this.server) return this.url;
    const server = createServer((req, res) => void this.handle(req, res));
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port, this.options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.address = server.address() as AddressInfo;
    this.pool.startHealthChecks(this.options.healthCheckIntervalMs, 2_000);
    return this.url;
  }

  /** `http://host:port` (available after `start()`). */
  get url(): string {
    if (!this.address) throw new Error('LlmGateway: not started (call start() first)');
    const host =
      this.address.family === 'IPv6' ? `[${this.address.address}]` : this.address.address;
    return `http://${host}:${this.address.port}`;
  }

  get port(): number {
    if (!this.address) throw new Error('LlmGateway: not started (call start() first)');
    return this.address.port;
  }

  /** Base URL for one rollout attempt: `…/rollout/{rollout_id}/attempt/{attempt_id}/v1`. */
  baseUrl(rolloutId?: string, attemptId?: string): string {
    return this.asResource().getBaseUrl(rolloutId, attemptId);
  }

  /**
   * The `ProxyLLM` resource runners understand (ours and upstream's): its `endpoint` is the gateway's `/v1`,
   * `getBaseUrl(rollout_id, attempt_id)` / upstream's `get_base_url` add the rollout prefix.
   */
  asResource(options: { model?: string; samplingParameters?: JsonRecord } = {}): ProxyLLM {
    const model = options.model ?? this.pool.backends[0]?.config.models?.[0] ?? 'default';
    return new ProxyLLM({
      endpoint: `${this.url}/v1`,
      model,
      api_key: this.options.token ?? null,
      sampling_parameters: options.samplingParameters ?? {},
    });
  }

  /**
   * Stops admitting calls (they wait for `resume()`, or get 429 + `Retry-After` with mode `reject`); resolves
   * once the calls in flight have finished when `drain` is true (default).
   */
  async pause(options: { mode?: PauseMode; drain?: boolean } = {}): Promise<GatewayState> {
    this.gate.pause(options.mode ?? this.options.pauseMode);
    if (options.drain !== false) await this.gate.drained();
    return this.gate.state();
  }

  resume(): GatewayState {
    this.gate.resume();
    return this.gate.state();
  }

  state(): GatewayState {
    return this.gate.state();
  }

  /** Stops listening, ends open connections, flushes spans and (if it owns it) shuts the tracer down. */
  async stop(): Promise<void> {
    this.pool.stopHealthChecks();
    this.gate.resume();
    const server = this.server;
    this.server = undefined;
    if (server) {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
    if (this.ownTracer) await this.tracer.shutdown();
    else await this.tracer.flush(5_000);
  }

  // ---------------------------------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort(new Error('client closed the connection'));
    });
    try {
      await this.route(req, res, abort);
    } catch (error) {
      const path = (req.url ?? '').split('?')[0]!.replace(/\/+$/, '');
      this.sendError(res, error, path.endsWith('/messages'));
    }
  }

  private async route(
    req: IncomingMessage,
    res: ServerResponse,
    abort: AbortController,
  ): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway');
    const pathname = url.pathname.replace(/\/+$/, '') || '/';
    if (pathname === '/health' && req.method === 'GET') {
      return this.sendJson(res, 200, { status: 'ok' });
    }
    this.authorize(req);
    if (pathname.startsWith('/gateway/')) return this.admin(pathname, req, res, url);
    const route = parseRoute(pathname, req.headers);
    if (!route.target) {
      throw new HttpError(404, `unknown route: ${req.method} ${route.path}`, 'not_found_error');
    }
    if ((route.rolloutId === undefined) !== (route.attemptId === undefined)) {
      throw new HttpError(400, 'x-rollout-id and x-attempt-id must be given together');
    }
    const ctx: CallContext = {
      req,
      res,
      rolloutId: route.rolloutId,
      attemptId: route.attemptId,
      abort,
    };
    if (route.target.kind === 'models') {
      if (req.method !== 'GET')
        throw new HttpError(405, `method ${req.method} not allowed on ${route.path}`);
      return this.models(ctx, route.target.id);
    }
    if (req.method !== 'POST')
      throw new HttpError(405, `method ${req.method} not allowed on ${route.path}`);
    if (ctx.rolloutId === undefined && this.options.outsideRollout === 'reject') {
      throw new HttpError(
        400,
        'this gateway only serves calls inside a rollout: use /rollout/{rollout_id}/attempt/{attempt_id}/v1/… or the x-rollout-id and x-attempt-id headers',
      );
    }
    const body = await this.readBody(req);
    if (!(await this.gate.enter())) {
      throw new HttpError(
        429,
        'the gateway is paused for a model update; retry later',
        'rate_limit_error',
        {
          'retry-after': String(this.options.pauseRetryAfterSeconds),
          'x-arclight-paused': 'true',
        },
      );
    }
    try {
      // The client may have gone away while the gateway was paused.
      if (abort.signal.aborted) return;
      await this.generate(ctx, route.target, body);
    } finally {
      this.gate.leave();
    }
  }

  private authorize(req: IncomingMessage): void {
    const token = this.options.token;
    if (!token) return;
    const auth = req.headers.authorization;
    const bearer =
      typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7) : undefined;
    const apiKey = req.headers['x-api-key'];
    if (bearer === token || apiKey === token) return;
    throw new HttpError(
      401,
      'missing or wrong gateway token (Authorization: Bearer <token> or x-api-key)',
      'authentication_error',
    );
  }

  private async admin(
    pathname: string,
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
  ): Promise<void> {
    if (pathname === '/gateway/state' && req.method === 'GET') {
      return this.sendJson(res, 200, { ...this.state(), backends: this.backendStates() });
    }
    if (pathname === '/gateway/pause' && req.method === 'POST') {
      const mode = url.searchParams.get('mode') ?? undefined;
      if (mode !== undefined && mode !== 'wait' && mode !== 'reject') {
        throw new HttpError(400, `mode: expected "wait" or "reject", got "${mode}"`);
      }
      const drain = url.searchParams.get('drain') === 'true';
      return this.sendJson(res, 200, await this.pause({ mode, drain }));
    }
    if (pathname === '/gateway/resume' && req.method === 'POST')
      return this.sendJson(res, 200, this.resume());
    throw new HttpError(404, `unknown route: ${req.method} ${pathname}`, 'not_found_error');
  }

  private backendStates() {
    return this.pool.backends.map((b) => ({
      url: b.url,
      healthy: b.healthy,
      outstanding: b.outstanding,
      served: b.served,
      failures: b.failures,
    }));
  }

  private async readBody(req: IncomingMessage): Promise<JsonRecord> {
    const limit = this.options.bodyLimit;
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      throw new HttpError(
        413,
        `request body of ${declared} bytes exceeds the gateway's limit of ${limit} bytes`,
      );
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        req.resume();
        throw new HttpError(413, `request body exceeds the gateway's limit of ${limit} bytes`);
      }
      chunks.push(chunk);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch (error) {
      throw new HttpError(400, `request body is not valid JSON: ${(error as Error).message}`);
    }
    if (!isRecord(parsed)) throw new HttpError(400, 'request body must be a JSON object');
    if (typeof parsed.model !== 'string' || parsed.model === '') {
      throw new HttpError(400, 'model: expected a non-empty string');
    }
    if (parsed.stream !== undefined && typeof parsed.stream !== 'boolean') {
      throw new HttpError(400, 'stream: expected a boolean');
    }
    return parsed;
  }

  private async models(ctx: CallContext, id: string | undefined): Promise<void> {
    const listed = this.pool.listedModels();
    if (listed) {
      const card = (model: string) => ({
        id: model,
        object: 'model',
        created: 0,
        owned_by: 'arclight-gateway',
      });
      if (id === undefined)
        return this.sendJson(ctx.res, 200, { object: 'list', data: listed.map(card) });
      if (listed.includes(id)) return this.sendJson(ctx.res, 200, card(id));
      throw new HttpError(404, `model '${id}' not found`, 'not_found_error');
    }
    const result = await forward(
      this.pool,
      {
        model: undefined,
        path: id === undefined ? '/models' : `/models/${encodeURIComponent(id)}`,
        method: 'GET',
        headers: this.passedHeaders(ctx.req),
        signal: AbortSignal.any([
          ctx.abort.signal,
          AbortSignal.timeout(this.options.requestTimeoutMs),
        ]),
      },
      this.options.retry,
    );
    try {
      const bytes = Buffer.from(await result.response.arrayBuffer());
      ctx.res.writeHead(result.response.status, {
        'content-type': result.response.headers.get('content-type') ?? 'application/json',
      });
      ctx.res.end(bytes);
    } finally {
      result.release();
    }
  }

  private passedHeaders(req: IncomingMessage): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name of PASSED_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') out[name] = value;
    }
    return out;
  }

  private async modeOf(ctx: CallContext): Promise<string | undefined> {
    const header = ctx.req.headers['x-rollout-mode'];
    if (typeof header === 'string' && header !== '') return header;
    if (
      !this.store ||
      ctx.rolloutId === undefined ||
      Object.keys(this.options.samplingOverrides).length === 0
    ) {
      return undefined;
    }
    if (!this.modes.has(ctx.rolloutId)) {
      let mode: string | null = null;
      try {
        mode = (await this.store.getRolloutById(ctx.rolloutId))?.mode ?? null;
      } catch {
        mode = null;
      }
      if (this.modes.size >= MODE_CACHE_LIMIT) this.modes.clear();
      this.modes.set(ctx.rolloutId, mode);
    }
    return this.modes.get(ctx.rolloutId) ?? undefined;
  }

  private async generate(
    ctx: CallContext,
    target: RouteTarget,
    clientBody: JsonRecord,
  ): Promise<void> {
    const anthropic = target.kind === 'messages';
    if (anthropic) {
      const problem = messagesRequestProblem(clientBody);
      if (problem) throw new HttpError(400, problem);
    }
    let body = anthropic ? messagesToChat(clientBody) : clientBody;
    const endpoint = OPENAI_API_ENDPOINTS[target.kind === 'generate' ? target.api : 'chat'];
    const mode = await this.modeOf(ctx);
    const overrides = mode === undefined ? undefined : this.options.samplingOverrides[mode];
    if (overrides) body = { ...body, ...overrides };
    const run = () => this.call(ctx, endpoint, body, clientBody, anthropic);
    if (ctx.rolloutId !== undefined && ctx.attemptId !== undefined) {
      await this.tracer.traceContext({ rolloutId: ctx.rolloutId, attemptId: ctx.attemptId }, run);
    } else {
      await run();
    }
  }

  private async call(
    ctx: CallContext,
    endpoint: OpenAIApiEndpoint,
    body: JsonRecord,
    clientBody: JsonRecord,
    anthropic: boolean,
  ): Promise<void> {
    const recorded = ctx.rolloutId !== undefined;
    const stream = body.stream === true;
    const bodies = new Map<Backend, JsonRecord>();
    const bodyFor = (backend: Backend): JsonRecord => {
      let sent = bodies.get(backend);
      if (!sent) {
        // A copy: the model is set per backend below, and `augmentBody` may return `body` itself.
        sent = {
          ...endpoint.augmentBody(body, {
            requestTokenIds: backend.config.tokenIds !== false,
            requestLogprobs: this.options.requestLogprobs,
          }),
        };
        if (backend.config.servedModel) sent.model = backend.config.servedModel;
        bodies.set(backend, sent);
      }
      return sent;
    };
    // The span records the request as a backend serving the model is sent it.
    const firstBackend = this.pool.backends.find((b) => b.serves(asString(body.model)));
    const recorder = recorded
      ? CallRecorder.start(
          this.otelTracer,
          endpoint,
          firstBackend ? bodyFor(firstBackend) : body,
          anthropic ? { [GatewayAttributes.CLIENT_API]: 'anthropic.messages' } : {},
        )
      : undefined;
    const headerTimeout = AbortSignal.timeout(this.options.requestTimeoutMs);
    let result: ForwardResult;
    try {
      result = await forward(
        this.pool,
        {
          model: asString(body.model),
          path: endpoint.path,
          method: 'POST',
          bodyFor: (backend) => JSON.stringify(bodyFor(backend)),
          headers: this.passedHeaders(ctx.req),
          signal: AbortSignal.any([ctx.abort.signal, headerTimeout]),
        },
        this.options.retry,
      );
    } catch (error) {
      const timedOut = headerTimeout.aborted;
      const failure =
        error instanceof ForwardError
          ? error
          : timedOut
            ? new ForwardError(
                `backend did not answer within ${this.options.requestTimeoutMs} ms`,
                504,
                'timeout',
              )
            : new ForwardError(
                `client went away: ${(error as Error)?.message ?? String(error)}`,
                499,
                'client_closed',
              );
      recorder?.fail(failure.message, failure.type, failure.status);
      this.options.logger(`gateway: ${failure.type}: ${failure.message}`);
      throw new HttpError(failure.status, failure.message, failure.type);
    }
    recorder?.setAttributes({
      [GatewayAttributes.BACKEND]: result.backend.url,
      [GatewayAttributes.ATTEMPTS]: result.attempts,
    });
    const response = result.response;
    try {
      if (!response.ok) {
        const text = await response.text();
        recorder?.fail(errorMessage(text, response.status), 'backend_error', response.status);
        const headers: Record<string, string> = {
          'content-type': anthropic
            ? 'application/json'
            : (response.headers.get('content-type') ?? 'application/json'),
        };
        const retryAfter = response.headers.get('retry-after');
        if (retryAfter) headers['retry-after'] = retryAfter;
        ctx.res.writeHead(response.status, headers);
        ctx.res.end(anthropic ? JSON.stringify(anthropicError(response.status, text)) : text);
        return;
      }
      const isStream =
        stream && (response.headers.get('content-type') ?? '').includes('text/event-stream');
      if (isStream)
        await this.relayStream(ctx, endpoint, response, recorder, anthropic, clientBody);
      else await this.relayJson(ctx, response, recorder, anthropic, clientBody, headerTimeout);
    } finally {
      result.release();
    }
  }

  private async relayJson(
    ctx: CallContext,
    response: Response,
    recorder: CallRecorder | undefined,
    anthropic: boolean,
    clientBody: JsonRecord,
    timeout: AbortSignal,
  ): Promise<void> {
    let bytes: Buffer;
    try {
      bytes = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      const reason = timeout.aborted
        ? 'timeout'
        : ctx.abort.signal.aborted
          ? 'client_closed'
          : 'backend_error';
      recorder?.fail(`reading the backend's answer failed: ${String(error)}`, reason, 502);
      throw new HttpError(
        timeout.aborted ? 504 : 502,
        `reading the backend's answer failed (${reason})`,
        reason,
      );
    }
    let parsed: JsonRecord | undefined;
    try {
      parsed = asRecord(JSON.parse(bytes.toString('utf8')));
    } catch {
      parsed = undefined;
    }
    if (parsed) recorder?.succeed(parsed);
    else
      recorder?.fail(
        'the backend answered with something that is not a JSON object',
        'bad_backend_response',
        response.status,
      );
    if (anthropic) {
      if (!parsed)
        throw new HttpError(
          502,
          'the backend answered with something that is not a JSON object',
          'api_error',
        );
      return this.sendJson(ctx.res, 200, chatToMessage(parsed, clientBody.model));
    }
    ctx.res.writeHead(response.status, {
      'content-type': response.headers.get('content-type') ?? 'application/json',
      'content-length': String(bytes.length),
    });
    ctx.res.end(bytes);
  }

  private async relayStream(
    ctx: CallContext,
    endpoint: OpenAIApiEndpoint,
    response: Response,
    recorder: CallRecorder | undefined,
    anthropic: boolean,
    clientBody: JsonRecord,
  ): Promise<void> {
    const { res } = ctx;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.flushHeaders();
    const accumulator = endpoint.createAccumulator();
    const parser = new SseParser();
    const translator = anthropic ? new MessagesStreamTranslator(clientBody.model) : undefined;
    const reader = response.body?.getReader();
    let partial: PartialReason | undefined;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void reader?.cancel(new Error('stream duration limit reached')).catch(() => undefined);
    }, this.options.streamTimeoutMs);
    timer.unref();
    const onAbort = () => void reader?.cancel(ctx.abort.signal.reason).catch(() => undefined);
    ctx.abort.signal.addEventListener('abort', onAbort, { once: true });
    const consume = async (events: ReturnType<SseParser['push']>) => {
      for (const event of events) {
        if (!recorder && !translator) return;
        const json = eventJson(event);
        if (!json) continue;
        if (recorder) accumulator.add(json);
        if (translator) {
          const out = translator.chunk(json);
          if (out) await write(res, out);
        }
      }
    };
    try {
      if (!reader) throw new Error('the backend sent no body');
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        // Pass the bytes on as they came (OpenAI routes), then look at them.
        if (!translator) await write(res, value);
        await consume(parser.push(value));
      }
      await consume(parser.end());
      if (ctx.abort.signal.aborted) partial = 'abandoned';
      else if (timedOut) partial = 'timeout';
    } catch {
      partial = ctx.abort.signal.aborted ? 'abandoned' : timedOut ? 'timeout' : 'error';
    } finally {
      clearTimeout(timer);
      ctx.abort.signal.removeEventListener('abort', onAbort);
    }
    if (translator && !res.writableEnded && partial === undefined) res.write(translator.end());
    recorder?.succeed(accumulator.result(), partial);
    if (!res.writableEnded) res.end();
  }

  private sendJson(
    res: ServerResponse,
    status: number,
    value: unknown,
    headers: Record<string, string> = {},
  ): void {
    if (res.destroyed || res.writableEnded) return;
    const text = JSON.stringify(value);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    });
    res.end(text);
  }

  private sendError(res: ServerResponse, error: unknown, anthropic: boolean): void {
    if (res.headersSent) {
      if (!res.writableEnded) res.end();
      return;
    }
    const http =
      error instanceof HttpError
        ? error
        : new HttpError(
            500,
            `gateway error: ${error instanceof Error ? error.message : String(error)}`,
            'api_error',
          );
    const body = anthropic
      ? { type: 'error', error: { type: http.type, message: http.message } }
      : { error: { message: http.message, type: http.type, param: null, code: http.status } };
    this.sendJson(res, http.status, body, http.headers);
  }
}

/** Writes to the client, waiting while its socket buffer is full (or until it goes away). */
async function write(res: ServerResponse, chunk: string | Uint8Array): Promise<void> {
  if (res.writableEnded || res.destroyed) return;
  if (res.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function errorMessage(text: string, status: number): string {
  try {
    const message = asRecord(asRecord(JSON.parse(text))?.error)?.message;
    if (typeof message === 'string') return message;
  } catch {
    // not JSON
  }
  return text.slice(0, 500) || `backend answered ${status}`;
}

/** Creates and starts a gateway; resolves once it listens. */
export async function startGateway(options: GatewayOptions): Promise<LlmGateway> {
  const gateway = new LlmGateway(options);
  await gateway.start();
  return gateway;
}
