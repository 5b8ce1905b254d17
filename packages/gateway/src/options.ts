import type { JsonRecord } from '@arclight/core';
import type { LightningTracer } from '@arclight/otel';
import type { LightningStore } from '@arclight/store';
import type { BackendConfig } from './backend-pool.js';
import { DEFAULT_RETRY, type RetryPolicy } from './forwarder.js';
import type { PauseMode } from './pause-gate.js';

export interface GatewayOptions {
  /** The servers calls go to; a model may be served by several (least-outstanding-requests). */
  backends: BackendConfig[];
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Where spans go: an in-process store, or a `LightningStoreClient` (OTLP to its server). */
  store?: LightningStore | null;
  /** Send spans over OTLP/HTTP to this store server instead (ours or upstream's `agl store`). */
  otlpEndpoint?: string;
  /** Headers of the OTLP requests (e.g. the store server's token). */
  otlpHeaders?: Record<string, string>;
  /** Use this tracer instead of creating one (its sink decides where spans go). */
  tracer?: LightningTracer;
  /** Require `Authorization: Bearer <token>` (or `x-api-key: <token>`) on every call. */
  token?: string;
  /** Calls with no rollout (no path prefix, no headers): `forward` unrecorded (default) or `reject` (400). */
  outsideRollout?: 'forward' | 'reject';
  /** Also ask backends for logprobs (`logprobs: true`; legacy completions `logprobs: 0`). Default false. */
  requestLogprobs?: boolean;
  /**
   * Request fields forced per rollout mode, e.g. `{ train: { temperature: 1.0 }, val: { temperature: 0.7 } }`.
   * The mode comes from the `x-rollout-mode` header, else (with `store`) the rollout's `mode`.
   */
  samplingOverrides?: Record<string, JsonRecord>;
  /** Retries on connection errors, 429 and 5xx (never after the first streamed byte). */
  retry?: Partial<RetryPolicy>;
  /** Upper bound until a backend's answer (whole body for non-streaming calls). Default 300 000 ms. */
  requestTimeoutMs?: number;
  /** Upper bound of a whole stream; the stream is ended (and its span marked partial) after it. Default 600 000 ms. */
  streamTimeoutMs?: number;
  /** Largest request body in bytes. Default 16 MiB. */
  bodyLimit?: number;
  /** What `pause()` does with new calls by default: `wait` for resume, or `reject` with 429. */
  pauseMode?: PauseMode;
  /** Seconds in the `Retry-After` of a rejected paused call. Default 1. */
  pauseRetryAfterSeconds?: number;
  /** Probe each backend's `GET /models` this often; 0 disables. Default 10 000 ms. */
  healthCheckIntervalMs?: number;
  /** Receives one line per failure (never keys or bodies). Default: `console.warn`. */
  logger?: (line: string) => void;
}

export interface ResolvedGatewayOptions {
  host: string;
  port: number;
  token: string | undefined;
  outsideRollout: 'forward' | 'reject';
  requestLogprobs: boolean;
  samplingOverrides: Record<string, JsonRecord>;
  retry: RetryPolicy;
  requestTimeoutMs: number;
  streamTimeoutMs: number;
  bodyLimit: number;
  pauseMode: PauseMode;
  pauseRetryAfterSeconds: number;
  healthCheckIntervalMs: number;
  logger: (line: string) => void;
}

export const DEFAULT_BODY_LIMIT = 16 * 1024 * 1024;

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new TypeError(
      `gateway option ${name} must be a non-negative number, got ${String(value)}`,
    );
  }
  return value;
}

export function resolveGatewayOptions(options: GatewayOptions): ResolvedGatewayOptions {
  if (!Array.isArray(options.backends) || options.backends.length === 0) {
    throw new TypeError('gateway option backends: expected at least one backend ({ url })');
  }
  for (const [i, backend] of options.backends.entries()) {
    try {
      new URL(backend.url);
    } catch {
      throw new TypeError(`gateway option backends.${i}.url: not a URL: ${String(backend.url)}`);
    }
  }
  const retry = options.retry ?? {};
  return {
    host: options.host ?? '127.0.0.1',
    port: nonNegative('port', options.port, 0),
    token: options.token || undefined,
    outsideRollout: options.outsideRollout ?? 'forward',
    requestLogprobs: options.requestLogprobs === true,
    samplingOverrides: options.samplingOverrides ?? {},
    retry: {
      maxRetries: nonNegative('retry.maxRetries', retry.maxRetries, DEFAULT_RETRY.maxRetries),
      baseDelayMs: nonNegative('retry.baseDelayMs', retry.baseDelayMs, DEFAULT_RETRY.baseDelayMs),
      maxDelayMs: nonNegative('retry.maxDelayMs', retry.maxDelayMs, DEFAULT_RETRY.maxDelayMs),
    },
    requestTimeoutMs: nonNegative('requestTimeoutMs', options.requestTimeoutMs, 300_000),
    streamTimeoutMs: nonNegative('streamTimeoutMs', options.streamTimeoutMs, 600_000),
    bodyLimit: nonNegative('bodyLimit', options.bodyLimit, DEFAULT_BODY_LIMIT),
    pauseMode: options.pauseMode ?? 'wait',
    pauseRetryAfterSeconds: nonNegative(
      'pauseRetryAfterSeconds',
      options.pauseRetryAfterSeconds,
      1,
    ),
    healthCheckIntervalMs: nonNegative(
      'healthCheckIntervalMs',
      options.healthCheckIntervalMs,
      10_000,
    ),
    logger: options.logger ?? ((line) => console.warn(`[arclight/gateway] ${line}`)),
  };
}
