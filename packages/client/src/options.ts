import { fetchSender, keepAliveSender, type Sender } from './http-sender.js';

/** Options of `LightningStoreClient`. Durations are in seconds, as in upstream's Python client. */
export interface LightningStoreClientOptions {
  /** Sent as `Authorization: Bearer <token>` on every request (Arclight servers started with a token). */
  token?: string;
  /**
   * Delays before each retry of a request that failed for a transient reason (5xx, 408, network error,
   * timeout). The first try is immediate; `[]` disables retries. Default `[1, 2, 5]`.
   */
  retryDelays?: readonly number[];
  /**
   * Delays between `GET /v1/agl/health` probes made before a retry; when the server never answers 200 the
   * request fails without further retries. `[]` skips the probe. Default `[0.1, 0.2, 0.5]`.
   */
  healthRetryDelays?: readonly number[];
  /** Upper bound for one HTTP request, body included. Default 30. */
  requestTimeout?: number;
  /**
   * Upper bound for one health probe. Node's global `fetch` has no separate connect timeout, so this bounds
   * the whole probe request. Default 5.
   */
  connectionTimeout?: number;
  /**
   * A `fetch` implementation to send requests with. Default: `node:http` with a keep-alive agent per client
   * (a few times cheaper per request than the global `fetch`).
   */
  fetch?: typeof globalThis.fetch;
  /**
   * Use Arclight's extension routes (`/v1/agl/x-arclight/…`) when the server lists them in
   * `GET /v1/agl/x-arclight/capabilities` (asked once per client). `false` keeps to the v0.x routes.
   * Default true; against upstream's server (404) the v0.x routes are used either way.
   */
  extensions?: boolean;
}

export interface ResolvedClientOptions {
  token: string | undefined;
  retryDelays: readonly number[];
  healthRetryDelays: readonly number[];
  requestTimeout: number;
  connectionTimeout: number;
  send: Sender;
  extensions: boolean;
}

export function resolveClientOptions(
  options: LightningStoreClientOptions = {},
): ResolvedClientOptions {
  const retryDelays = checkDelays('retryDelays', options.retryDelays ?? [1, 2, 5]);
  const healthRetryDelays = checkDelays(
    'healthRetryDelays',
    options.healthRetryDelays ?? [0.1, 0.2, 0.5],
  );
  const requestTimeout = checkPositive('requestTimeout', options.requestTimeout ?? 30);
  const connectionTimeout = checkPositive('connectionTimeout', options.connectionTimeout ?? 5);
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new TypeError(
      `LightningStoreClient: options.fetch must be a function, got ${typeof options.fetch}`,
    );
  }
  return {
    token: options.token,
    retryDelays,
    healthRetryDelays,
    requestTimeout,
    connectionTimeout,
    send: options.fetch ? fetchSender(options.fetch) : keepAliveSender(),
    extensions: options.extensions ?? true,
  };
}

function checkDelays(name: string, delays: readonly number[]): readonly number[] {
  for (const delay of delays) {
    if (!Number.isFinite(delay) || delay < 0) {
      throw new RangeError(
        `LightningStoreClient: ${name} must hold finite non-negative seconds, got ${delay}`,
      );
    }
  }
  return [...delays];
}

function checkPositive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(
      `LightningStoreClient: ${name} must be a positive number of seconds, got ${value}`,
    );
  }
  return value;
}
