import type { FastifyServerOptions } from 'fastify';
import { type RequestLimits, resolveLimits } from './http/limits.js';

export interface LightningStoreServerOptions {
  /** Interface to bind; default `127.0.0.1`. */
  host?: string;
  /** TCP port; default 4747 (upstream's default). `0` picks a free port. */
  port?: number;
  /** Shared secret required (as `Authorization: Bearer` or `x-api-key`) on all routes but the health check. */
  token?: string;
  /** Allowed CORS origins; `'*'` allows any. No CORS headers when absent or empty. */
  corsOrigins?: string[];
  /** Largest request body in bytes (also the largest decompressed OTLP body); default 64 MiB. */
  bodyLimit?: number;
  /** Fastify logger option; default `false`. */
  logger?: FastifyServerOptions['logger'];
  /** Bounds on the work one request may cause (see `RequestLimits` for the defaults). */
  limits?: Partial<RequestLimits>;
  /** Serve Prometheus metrics on `/metrics` and `/v1/prometheus/`; default false. */
  metrics?: boolean;
  /**
   * Answer every request that would write with 405 (reads, searches and waits still work): for serving a store
   * opened read-only.
   */
  readOnly?: boolean;
  /**
   * Milliseconds `close()` lets in-flight responses finish before it closes their connections (a client that stops
   * reading a large answer would otherwise hold the shutdown forever). Default 10,000.
   */
  drainTimeoutMs?: number;
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4747;
export const DEFAULT_BODY_LIMIT = 64 * 1024 * 1024;
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;

export interface ResolvedServerOptions {
  host: string;
  port: number;
  token: string | undefined;
  corsOrigins: string[];
  bodyLimit: number;
  logger: FastifyServerOptions['logger'];
  limits: RequestLimits;
  metrics: boolean;
  readOnly: boolean;
  drainTimeoutMs: number;
}

/** Applies defaults and rejects impossible values with a message naming the option. */
export function resolveOptions(options: LightningStoreServerOptions = {}): ResolvedServerOptions {
  const port = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`port: expected an integer between 0 and 65535, got ${String(port)}`);
  }
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  if (!Number.isSafeInteger(bodyLimit) || bodyLimit <= 0) {
    throw new RangeError(`bodyLimit: expected a positive integer, got ${String(bodyLimit)}`);
  }
  if (options.token !== undefined && options.token === '') {
    throw new RangeError('token: must not be empty');
  }
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  if (!Number.isSafeInteger(drainTimeoutMs) || drainTimeoutMs < 0) {
    throw new RangeError(
      `drainTimeoutMs: expected a non-negative integer, got ${String(drainTimeoutMs)}`,
    );
  }
  const corsOrigins = (options.corsOrigins ?? []).map((o) => o.trim()).filter((o) => o !== '');
  return {
    host: options.host ?? DEFAULT_HOST,
    port,
    token: options.token,
    corsOrigins: corsOrigins.includes('*') ? ['*'] : corsOrigins,
    bodyLimit,
    logger: options.logger ?? false,
    limits: resolveLimits(options.limits, bodyLimit),
    metrics: options.metrics ?? false,
    readOnly: options.readOnly ?? false,
    drainTimeoutMs,
  };
}
