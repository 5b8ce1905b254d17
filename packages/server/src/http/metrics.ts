import { type LightningStoreStatistics, ROLLOUT_STATUSES } from '@arclight/core';
import type { LightningStore } from '@arclight/store';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Upstream's `LATENCY_BUCKETS` spirit: sub-millisecond to tens of seconds (long polls). */
const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

/** Paths serving the exposition: ours and upstream's (`/v1/prometheus/`, trailing slash included). */
export const METRICS_PATHS = ['/metrics', '/v1/prometheus', '/v1/prometheus/'] as const;

/** Reason label for a 4xx that no handler named more precisely. */
const REASON_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'too_large',
  415: 'unsupported_media_type',
  422: 'validation',
};

/**
 * Prometheus metrics of one server, in their own registry (several servers in one process do not mix):
 * - `agl_http_total` / `agl_http_latency` {path, method, status}: upstream's names, `path` being the route
 *   pattern (`/v1/agl/rollouts/:rollout_id`) so ids do not explode the label set;
 * - `arclight_requests_rejected_total{reason}`: 4xx answers by reason (a limit's name, `unauthorized`, …);
 * - `arclight_spans_ingested_total{source}`: spans stored through OTLP or `POST /v1/agl/spans`;
 * - gauges read from the store at scrape time: `arclight_rollouts{status}`, `arclight_queue_depth`,
 *   `arclight_store_records{kind}`, `arclight_store_span_bytes`, `arclight_store_memory_capacity_bytes`;
 * - the process's memory/CPU/event-loop metrics (`process_resident_memory_bytes`, `nodejs_heap_size_used_bytes`…).
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly httpTotal: Counter<'path' | 'method' | 'status'>;
  private readonly httpLatency: Histogram<'path' | 'method' | 'status'>;
  private readonly rejectedTotal: Counter<'reason'>;
  private readonly spansTotal: Counter<'source'>;
  private readonly reasons = new WeakMap<FastifyRequest, string>();

  constructor(store: LightningStore) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpTotal = new Counter({
      name: 'agl_http_total',
      help: 'HTTP requests answered, by route pattern, method and status',
      labelNames: ['path', 'method', 'status'],
      registers,
    });
    this.httpLatency = new Histogram({
      name: 'agl_http_latency',
      help: 'HTTP request latency in seconds, by route pattern, method and status',
      labelNames: ['path', 'method', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.rejectedTotal = new Counter({
      name: 'arclight_requests_rejected_total',
      help: 'Requests answered with a 4xx, by reason (limits.* name, unauthorized, validation, ...)',
      labelNames: ['reason'],
      registers,
    });
    this.spansTotal = new Counter({
      name: 'arclight_spans_ingested_total',
      help: 'Spans accepted for storage, by source (otlp, rest)',
      labelNames: ['source'],
      registers,
    });
    new Gauge({
      name: 'arclight_rollouts',
      help: 'Rollouts in the store, by status',
      labelNames: ['status'],
      registers,
      async collect() {
        const totals = await Promise.all(
          ROLLOUT_STATUSES.map(
            async (status) => (await store.queryRollouts({ status_in: [status], limit: 1 })).total,
          ),
        );
        ROLLOUT_STATUSES.forEach((status, i) => {
          this.set({ status }, totals[i]!);
        });
      },
    });
    new Gauge({
      name: 'arclight_queue_depth',
      help: 'Rollouts waiting to be dequeued (queuing or requeuing)',
      registers,
      async collect() {
        const page = await store.queryRollouts({ status_in: ['queuing', 'requeuing'], limit: 1 });
        this.set(page.total);
      },
    });
    // The three gauges below share one `statistics()` per scrape (prom-client collects every metric at once): on a
    // PostgreSQL store each call counts whole tables.
    let reading: Promise<LightningStoreStatistics> | undefined;
    const statistics = () =>
      (reading ??= store.statistics().finally(() => {
        reading = undefined;
      }));
    new Gauge({
      name: 'arclight_store_records',
      help: 'Records in the store, by kind',
      labelNames: ['kind'],
      registers,
      async collect() {
        const stats = await statistics();
        this.set({ kind: 'rollouts' }, stats.total_rollouts);
        this.set({ kind: 'attempts' }, stats.total_attempts);
        this.set({ kind: 'spans' }, stats.total_spans);
        this.set({ kind: 'resources' }, stats.total_resources);
        this.set({ kind: 'workers' }, stats.total_workers);
      },
    });
    new Gauge({
      name: 'arclight_store_span_bytes',
      help: 'Approximate bytes of span data held by the store',
      registers,
      async collect() {
        this.set((await statistics()).total_span_bytes ?? 0);
      },
    });
    new Gauge({
      name: 'arclight_store_memory_capacity_bytes',
      help: 'Span memory cap of the in-memory store (0 when uncapped)',
      registers,
      async collect() {
        this.set((await statistics()).memory_capacity_bytes ?? 0);
      },
    });
  }

  /** Records every answered request, and serves the exposition on `METRICS_PATHS`. */
  install(app: FastifyInstance): void {
    app.addHook('onResponse', async (request, reply) => {
      const path = request.routeOptions.url ?? 'unmatched';
      const labels = { path, method: request.method, status: String(reply.statusCode) };
      this.httpTotal.inc(labels);
      this.httpLatency.observe(labels, reply.elapsedTime / 1000);
      const status = reply.statusCode;
      if (status >= 400 && status < 500) {
        this.rejected(this.reasons.get(request) ?? REASON_BY_STATUS[status] ?? `http_${status}`);
      }
      if (path === '/v1/agl/spans' && request.method === 'POST' && status === 201) {
        this.spansIngested('rest', 1);
      }
    });
    for (const path of METRICS_PATHS) {
      app.get(path, async (_request, reply) => {
        const text = await this.registry.metrics();
        return reply.header('content-type', this.registry.contentType).send(text);
      });
    }
  }

  /** Names why `request` is about to be refused (used instead of the status-derived reason). */
  markRejected(request: FastifyRequest, reason: string): void {
    this.reasons.set(request, reason);
  }

  rejected(reason: string): void {
    this.rejectedTotal.inc({ reason });
  }

  spansIngested(source: 'otlp' | 'rest', count: number): void {
    if (count > 0) this.spansTotal.inc({ source }, count);
  }
}
