import {
  type Attempt,
  type AttemptedRollout,
  type NamedResources,
  NotFoundError,
  type OtelSpanLike,
  type PaginatedResult,
  type ResourcesUpdate,
  type Rollout,
  type Span,
  StoreError,
  spanFromOtel,
  type Worker,
} from '@arclight/core';
import type {
  DequeueManyParams,
  DequeueParams,
  EnqueueRolloutParams,
  LightningStore,
  LightningStoreCapabilities,
  LightningStoreStatistics,
  QueryAttemptsParams,
  QueryResourcesParams,
  QueryRolloutsParams,
  QuerySpansParams,
  QueryWorkersParams,
  StartAttemptParams,
  StartRolloutParams,
  UpdateAttemptParams,
  UpdateRolloutParams,
  UpdateWorkerParams,
  WaitForRolloutsParams,
} from '@arclight/store';
import { type HttpRequest, HttpTransport } from './http-transport.js';
import { type LightningStoreClientOptions, resolveClientOptions } from './options.js';
import * as req from './request-payloads.js';
import * as res from './response-parsing.js';
import {
  parseCapabilities,
  parseRunnerCycleAnswer,
  RUNNER_CYCLE_EXTENSION,
  type RunnerCycleParams,
  type RunnerCycleResult,
  runnerCycleRequest,
} from './runner-cycle.js';
import { type OtlpExportResult, SpanBatchSender } from './span-batch-sender.js';
import { pollForRollouts } from './wait-polling.js';

const AGL = '/v1/agl';
const seg = (id: string): string => encodeURIComponent(id);

/**
 * The LightningStore over HTTP: talks to an Arclight server (`@arclight/server`) or to Agent Lightning's own
 * Python `LightningStoreServer` (`agl store`), using the same routes and retry policy as upstream's Python
 * `LightningStoreClient`. See README.md for the retry policy and what a remote store cannot do.
 */
export class LightningStoreClient implements LightningStore {
  /** Upstream's client reports every capability, which makes tracers export spans through OTLP. */
  readonly capabilities: LightningStoreCapabilities = {
    thread_safe: true,
    async_safe: true,
    zero_copy: true,
    otlp_traces: true,
  };

  /** The server root without a trailing slash, e.g. `http://localhost:4747`. */
  readonly serverAddress: string;
  private readonly http: HttpTransport;
  private readonly spans: SpanBatchSender;
  private extensionList: Promise<Set<string>> | null = null;

  constructor(serverAddress: string, options: LightningStoreClientOptions = {}) {
    this.serverAddress = serverAddress.replace(/\/+$/, '');
    this.http = new HttpTransport(this.serverAddress, resolveClientOptions(options));
    this.spans = new SpanBatchSender(this.http, (span) => this.addSpan(span));
  }

  /** The OTLP/HTTP traces endpoint of the server: `<root>/v1/traces`. */
  otlpTracesEndpoint(): string {
    return `${this.serverAddress}/v1/traces`;
  }

  /** Headers an OTLP exporter needs for that endpoint (the bearer token, if any); read by `@arclight/otel`. */
  otlpTracesHeaders(): Record<string, string> {
    return this.http.authHeaders();
  }

  /** Refuses new calls with `StoreClosedError`; requests already in flight complete. */
  async close(): Promise<void> {
    this.http.close();
  }

  async statistics(): Promise<LightningStoreStatistics> {
    const data = await this.call({ method: 'GET', path: `${AGL}/statistics` }, res.asObject);
    return data as LightningStoreStatistics;
  }

  // ------------------------------------------------------------------ rollouts and queue

  async startRollout(params: StartRolloutParams): Promise<AttemptedRollout> {
    const json = req.startRolloutBody(params);
    return this.call({ method: 'POST', path: `${AGL}/rollouts`, json }, res.asAttemptedRollout);
  }

  async enqueueRollout(params: EnqueueRolloutParams): Promise<Rollout> {
    const [rollout] = await this.enqueueManyRollouts([params]);
    if (!rollout) throw new StoreError('POST /v1/agl/queues/rollouts/enqueue returned no rollout');
    return rollout;
  }

  async enqueueManyRollouts(rollouts: EnqueueRolloutParams[]): Promise<Rollout[]> {
    if (rollouts.length === 0) return [];
    const json = { rollouts: rollouts.map(req.enqueueRolloutBody) };
    const path = `${AGL}/queues/rollouts/enqueue`;
    return this.call({ method: 'POST', path, json }, res.listOf(res.asRollout));
  }

  /** Never retried; `null` when the server cannot be reached or fails (it may not be up yet), as upstream. */
  async dequeueRollout(params: DequeueParams = {}): Promise<AttemptedRollout | null> {
    const [rollout] = await this.dequeueManyRollouts({ limit: 1, worker_id: params.worker_id });
    return rollout ?? null;
  }

  /** Never retried; `[]` when the server cannot be reached or fails (it may not be up yet), as upstream. */
  async dequeueManyRollouts(params: DequeueManyParams = {}): Promise<AttemptedRollout[]> {
    const json: Record<string, unknown> = { limit: params.limit ?? 1 };
    if (params.worker_id != null) json.worker_id = params.worker_id;
    const request: HttpRequest = { method: 'POST', path: `${AGL}/queues/rollouts/dequeue`, json };
    const data = await this.http.requestJsonOnce(request);
    if (data === undefined) return [];
    return res.decode(label(request), res.listOf(res.asAttemptedRollout), data);
  }

  async startAttempt(
    rolloutId: string,
    params: StartAttemptParams = {},
  ): Promise<AttemptedRollout> {
    const json = params.worker_id != null ? { worker_id: params.worker_id } : undefined;
    const path = `${AGL}/rollouts/${seg(rolloutId)}/attempts`;
    return this.call({ method: 'POST', path, json }, res.asAttemptedRollout);
  }

  async queryRollouts(
    params: QueryRolloutsParams = {},
  ): Promise<PaginatedResult<Rollout | AttemptedRollout>> {
    const json = req.queryRolloutsBody(params);
    return this.call(
      { method: 'POST', path: `${AGL}/rollouts/search`, json },
      res.paginated(res.asRollout),
    );
  }

  async queryAttempts(
    rolloutId: string,
    params: QueryAttemptsParams = {},
  ): Promise<PaginatedResult<Attempt>> {
    const path = `${AGL}/rollouts/${seg(rolloutId)}/attempts/search`;
    return this.call(
      { method: 'POST', path, json: req.queryAttemptsBody(params) },
      res.paginated(res.asAttempt),
    );
  }

  async getRolloutById(rolloutId: string): Promise<Rollout | AttemptedRollout | null> {
    // Upstream's server answers 500 (response validation of `null`) for unknown ids on this route.
    const request: HttpRequest = { method: 'GET', path: `${AGL}/rollouts/${seg(rolloutId)}` };
    return this.getById({ ...request, nullOnResponseValidationError: true }, res.asRollout);
  }

  async getLatestAttempt(rolloutId: string): Promise<Attempt | null> {
    return this.getById(
      { method: 'GET', path: `${AGL}/rollouts/${seg(rolloutId)}/attempts/latest` },
      res.asAttempt,
    );
  }

  async updateRollout(rolloutId: string, params: UpdateRolloutParams): Promise<Rollout> {
    const request = {
      method: 'POST',
      path: `${AGL}/rollouts/${seg(rolloutId)}`,
      json: req.updateRolloutBody(params),
    } as const;
    return this.call(request, res.asRollout);
  }

  async updateAttempt(
    rolloutId: string,
    attemptId: string,
    params: UpdateAttemptParams,
  ): Promise<Attempt> {
    const path = `${AGL}/rollouts/${seg(rolloutId)}/attempts/${seg(attemptId)}`;
    return this.call({ method: 'POST', path, json: req.updateAttemptBody(params) }, res.asAttempt);
  }

  /**
   * Waits until the rollouts are finished (or `timeout` seconds pass) and returns the finished ones. Upstream's
   * Python client forbids timeouts above 0.1 s; this client instead polls the server with 0.1 s waits until
   * the deadline, so long and unlimited (`timeout` absent) waits work. Unknown ids are ignored.
   */
  async waitForRollouts(params: WaitForRolloutsParams): Promise<Rollout[]> {
    const path = `${AGL}/waits/rollouts`;
    return pollForRollouts(
      {
        waitOnce: (rolloutIds, timeout) =>
          this.call(
            { method: 'POST', path, json: { rollout_ids: rolloutIds, timeout } },
            res.listOf(res.asRollout),
          ),
        knownIds: async (rolloutIds) => {
          const page = await this.queryRollouts({ rollout_id_in: rolloutIds });
          return new Set(page.items.map((rollout) => rollout.rollout_id));
        },
      },
      params.rollout_ids,
      params.timeout,
    );
  }

  // ------------------------------------------------------------------ resources

  async queryResources(
    params: QueryResourcesParams = {},
  ): Promise<PaginatedResult<ResourcesUpdate>> {
    const request: HttpRequest = {
      method: 'GET',
      path: `${AGL}/resources`,
      query: req.queryResourcesQuery(params),
    };
    return this.call(request, res.paginated(res.asResourcesUpdate));
  }

  async getResourcesById(resourcesId: string): Promise<ResourcesUpdate | null> {
    return this.getById(
      { method: 'GET', path: `${AGL}/resources/${seg(resourcesId)}` },
      res.asResourcesUpdate,
    );
  }

  async getLatestResources(): Promise<ResourcesUpdate | null> {
    return this.getById({ method: 'GET', path: `${AGL}/resources/latest` }, res.asResourcesUpdate);
  }

  async addResources(resources: NamedResources): Promise<ResourcesUpdate> {
    return this.call(
      { method: 'POST', path: `${AGL}/resources`, json: resources },
      res.asResourcesUpdate,
    );
  }

  async updateResources(resourcesId: string, resources: NamedResources): Promise<ResourcesUpdate> {
    const path = `${AGL}/resources/${seg(resourcesId)}`;
    return this.call({ method: 'POST', path, json: resources }, res.asResourcesUpdate);
  }

  // ------------------------------------------------------------------ spans

  /** `POST /v1/agl/spans` with the full span JSON (lossless); `null` when the span is a duplicate. */
  async addSpan(span: Span): Promise<Span | null> {
    return this.call(
      { method: 'POST', path: `${AGL}/spans`, json: span },
      res.nullable(res.asSpan),
    );
  }

  /** Batches go through OTLP (`POST /v1/traces`); see `SpanBatchSender` for what comes back. */
  async addManySpans(spans: Span[]): Promise<Span[]> {
    return this.spans.send(spans);
  }

  /**
   * Exports spans through OTLP and reports the server's counts (`partial_success`), for callers that want
   * more than `addManySpans` can tell. Spans must have OTLP-shaped hex ids.
   */
  async exportSpans(spans: Span[]): Promise<OtlpExportResult> {
    return this.spans.export(spans);
  }

  /** Allocates the next sequence id (unless given) and adds the converted span, as upstream's client. */
  async addOtelSpan(
    rolloutId: string,
    attemptId: string,
    span: OtelSpanLike,
    sequenceId?: number | null,
  ): Promise<Span | null> {
    const seq = sequenceId ?? (await this.getNextSpanSequenceId(rolloutId, attemptId));
    return this.addSpan(spanFromOtel(span, rolloutId, attemptId, seq));
  }

  async getNextSpanSequenceId(rolloutId: string, attemptId: string): Promise<number> {
    const json = { rollout_id: rolloutId, attempt_id: attemptId };
    return this.call({ method: 'POST', path: `${AGL}/spans/next`, json }, res.asSequenceId);
  }

  /** One `/spans/next` call per pair (the HTTP API has no bulk route), in order. */
  async getManySpanSequenceIds(rolloutAttemptIds: Array<[string, string]>): Promise<number[]> {
    const ids: number[] = [];
    for (const [rolloutId, attemptId] of rolloutAttemptIds) {
      ids.push(await this.getNextSpanSequenceId(rolloutId, attemptId));
    }
    return ids;
  }

  async querySpans(
    rolloutId: string,
    params: QuerySpansParams = {},
  ): Promise<PaginatedResult<Span>> {
    const json = req.querySpansBody(rolloutId, params);
    return this.call(
      { method: 'POST', path: `${AGL}/spans/search`, json },
      res.paginated(res.asSpan),
    );
  }

  // ------------------------------------------------------------------ workers

  async queryWorkers(params: QueryWorkersParams = {}): Promise<PaginatedResult<Worker>> {
    const json = req.queryWorkersBody(params);
    return this.call(
      { method: 'POST', path: `${AGL}/workers/search`, json },
      res.paginated(res.asWorker),
    );
  }

  async getWorkerById(workerId: string): Promise<Worker | null> {
    return this.getById({ method: 'GET', path: `${AGL}/workers/${seg(workerId)}` }, res.asWorker);
  }

  async updateWorker(workerId: string, params: UpdateWorkerParams = {}): Promise<Worker> {
    const json =
      params.heartbeat_stats !== undefined
        ? { heartbeat_stats: params.heartbeat_stats }
        : undefined;
    return this.call(
      { method: 'POST', path: `${AGL}/workers/${seg(workerId)}`, json },
      res.asWorker,
    );
  }

  // ------------------------------------------------------------------ Arclight extensions

  /**
   * The Arclight extensions the server offers (`GET /v1/agl/x-arclight/capabilities`, asked once; upstream's
   * server answers 404 → none). Empty with `extensions: false`. A server that cannot be reached is asked again
   * next time.
   */
  async serverExtensions(): Promise<ReadonlySet<string>> {
    if (!this.http.options.extensions) return new Set();
    this.extensionList ??= this.probeExtensions();
    const list = await this.extensionList;
    if (list === UNREACHABLE) this.extensionList = null;
    return list;
  }

  /**
   * A runner's turn between two rollouts: apply the previous rollout's outcome (`finish` →
   * `updateAttempt`), then dequeue the next rollout for `worker_id`. With Arclight's `runner-cycle` extension
   * this is one request that also brings the rollout's resources; otherwise (upstream's server) the same store
   * calls go through the v0.x routes one by one and `resources` is left for the caller to fetch. Like
   * `dequeueRollout`, never retried: a failure to reach the server gives `rollout: null`. A failed `finish`
   * is reported in `finishError`, not thrown.
   */
  async runnerCycle(params: RunnerCycleParams): Promise<RunnerCycleResult> {
    if ((await this.serverExtensions()).has(RUNNER_CYCLE_EXTENSION)) {
      const request = runnerCycleRequest(params);
      const data = await this.http.requestJsonOnce(request);
      if (data === undefined) {
        const finishError = params.finish
          ? new StoreError(`${label(request)}: the server could not be reached`)
          : null;
        return { finished: null, finishError, rollout: null, extension: true };
      }
      return res.decode(label(request), parseRunnerCycleAnswer, data);
    }
    let finished: Attempt | null = null;
    let finishError: StoreError | null = null;
    if (params.finish) {
      const { rollout_id, attempt_id, status, metadata } = params.finish;
      try {
        finished = await this.updateAttempt(rollout_id, attempt_id, {
          status,
          ...(metadata ? { metadata } : {}),
        });
      } catch (error) {
        finishError = error instanceof StoreError ? error : new StoreError(String(error));
      }
    }
    const rollout =
      params.dequeue === false ? null : await this.dequeueRollout({ worker_id: params.worker_id });
    return { finished, finishError, rollout, extension: false };
  }

  private async probeExtensions(): Promise<Set<string>> {
    const request: HttpRequest = { method: 'GET', path: `${AGL}/x-arclight/capabilities` };
    try {
      const data = await this.http.requestJsonOnce(request);
      return data === undefined ? UNREACHABLE : parseCapabilities(data);
    } catch (error) {
      if (error instanceof NotFoundError) return new Set();
      throw error;
    }
  }

  // ------------------------------------------------------------------ plumbing

  private async call<T>(request: HttpRequest, parse: (value: unknown) => T): Promise<T> {
    const data = await this.http.requestJson(request);
    return res.decode(label(request), parse, data);
  }

  /** Get-by-id routes answer `null` for unknown ids; a server that answers 404 instead also gives `null`. */
  private async getById<T>(request: HttpRequest, parse: (value: unknown) => T): Promise<T | null> {
    try {
      return await this.call(request, res.nullable(parse));
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }
}

/** The probe's answer when the server could not be reached (not cached). */
const UNREACHABLE: Set<string> = new Set();

function label(request: HttpRequest): string {
  return `${request.method} ${request.path}`;
}
