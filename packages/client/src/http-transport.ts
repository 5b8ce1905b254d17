import { StoreClosedError, type StoreError } from '@arclight/core';
import {
  errorFromNetwork,
  errorFromResponse,
  isTransientStatus,
  TransientFailure,
} from './http-errors.js';
import type { ResolvedClientOptions } from './options.js';

export type QueryParams = Array<[string, string | number]>;

/** One HTTP request. `path` is absolute from the server root (e.g. `/v1/agl/rollouts`). */
export interface HttpRequest {
  method: 'GET' | 'POST';
  path: string;
  /** A JSON body; `undefined` sends no body. */
  json?: unknown;
  /** A binary body with its content type (OTLP protobuf). */
  bytes?: { body: Uint8Array; contentType: string };
  query?: QueryParams;
  /**
   * Treat upstream's `500 {"error_type": "ResponseValidationError"}` as a `null` answer: upstream's server
   * fails that way when a get-by-id route's store call returns `None` for an unknown id (quirk §12.14).
   */
  nullOnResponseValidationError?: boolean;
}

interface HttpAnswer {
  status: number;
  body: Uint8Array;
}

const sleep = (seconds: number): Promise<void> =>
  seconds > 0 ? new Promise((resolve) => setTimeout(resolve, seconds * 1000)) : Promise.resolve();

const decoder = new TextDecoder();

/**
 * HTTP with upstream's retry policy: try at once, then after each `retryDelays` entry. Answers 4xx (except
 * 408) fail immediately with a typed error. 5xx/408 answers, network errors and timeouts are transient:
 * before each retry the server's `/v1/agl/health` is probed (`healthRetryDelays`); if it never answers 200
 * the request fails with the last error.
 */
export class HttpTransport {
  private closed = false;
  private readonly headerSets = new Map<string, Record<string, string>>();

  constructor(
    readonly root: string,
    readonly options: ResolvedClientOptions,
  ) {}

  close(): void {
    this.closed = true;
  }

  /** A request with retries; resolves to the parsed JSON body (`null` for an empty body). */
  async requestJson(request: HttpRequest): Promise<unknown> {
    const answer = await this.withRetries(request);
    return parseJsonBody(answer.body, labelOf(request));
  }

  /** A request with retries; resolves to the raw body bytes. */
  async requestBytes(request: HttpRequest): Promise<Uint8Array> {
    return (await this.withRetries(request)).body;
  }

  /**
   * A single try, never retried: resolves to the parsed JSON, rejects with a typed error on 4xx, and
   * resolves to `undefined` on a transient failure (server down, 5xx, timeout).
   */
  async requestJsonOnce(request: HttpRequest): Promise<unknown> {
    this.ensureOpen();
    try {
      const answer = await this.tryOnce(request);
      return parseJsonBody(answer.body, labelOf(request));
    } catch (error) {
      if (error instanceof TransientFailure) return undefined;
      throw error;
    }
  }

  /** Whether `/v1/agl/health` answers 200 within `healthRetryDelays` probes. */
  async waitUntilHealthy(): Promise<boolean> {
    const delays = this.options.healthRetryDelays;
    if (delays.length === 0) return true;
    for (const delay of [...delays, 0]) {
      if (await this.probeHealth()) return true;
      await sleep(delay);
    }
    return false;
  }

  private async probeHealth(): Promise<boolean> {
    try {
      const answer = await this.options.send(`${this.root}/v1/agl/health`, {
        method: 'GET',
        headers: this.headers(undefined),
        timeoutMs: this.options.connectionTimeout * 1000,
      });
      return answer.status === 200;
    } catch {
      return false;
    }
  }

  private async withRetries(request: HttpRequest): Promise<HttpAnswer> {
    this.ensureOpen();
    const delays = this.options.retryDelays;
    let lastError: StoreError | undefined;
    for (let attempt = 0; attempt <= delays.length; attempt++) {
      if (attempt > 0) await sleep(delays[attempt - 1]!);
      try {
        return await this.tryOnce(request);
      } catch (error) {
        if (!(error instanceof TransientFailure)) throw error;
        lastError = error.error;
        if (attempt === delays.length || !(await this.waitUntilHealthy())) break;
      }
    }
    throw lastError!;
  }

  /** One try: resolves on 2xx, throws a typed error on a final failure or a `TransientFailure`. */
  private async tryOnce(request: HttpRequest): Promise<HttpAnswer> {
    const label = labelOf(request);
    let body: string | Uint8Array | undefined;
    let contentType: string | undefined;
    if (request.bytes) {
      body = request.bytes.body;
      contentType = request.bytes.contentType;
    } else if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      contentType = 'application/json';
    }
    let status: number;
    let bytes: Uint8Array;
    try {
      const answer = await this.options.send(this.url(request), {
        method: request.method,
        headers: this.headers(contentType),
        body,
        timeoutMs: this.options.requestTimeout * 1000,
      });
      status = answer.status;
      bytes = answer.body;
    } catch (error) {
      throw new TransientFailure(errorFromNetwork(label, error));
    }
    if (status >= 200 && status < 300) return { status, body: bytes };
    const text = decoder.decode(bytes);
    if (request.nullOnResponseValidationError && isResponseValidationError(status, text)) {
      return { status, body: new TextEncoder().encode('null') };
    }
    const error = errorFromResponse(status, label, text);
    if (isTransientStatus(status)) throw new TransientFailure(error);
    throw error;
  }

  private url(request: HttpRequest): string {
    let url = this.root + request.path;
    if (request.query && request.query.length > 0) {
      const search = new URLSearchParams();
      for (const [key, value] of request.query) search.append(key, String(value));
      url += `?${search.toString()}`;
    }
    return url;
  }

  /** The headers that authenticate a request to the server (empty without a token). */
  authHeaders(): Record<string, string> {
    return this.options.token ? { authorization: `Bearer ${this.options.token}` } : {};
  }

  /** The request headers by content type, built once (the sender copies them before adding its own). */
  private headers(contentType: string | undefined): Record<string, string> {
    const key = contentType ?? '';
    let headers = this.headerSets.get(key);
    if (!headers) {
      headers = { accept: 'application/json', ...this.authHeaders() };
      if (contentType) headers['content-type'] = contentType;
      this.headerSets.set(key, headers);
    }
    return headers;
  }

  private ensureOpen(): void {
    if (this.closed) throw new StoreClosedError('LightningStoreClient is closed');
  }
}

function isResponseValidationError(status: number, text: string): boolean {
  if (status !== 500) return false;
  try {
    const body = JSON.parse(text) as { error_type?: unknown };
    return body.error_type === 'ResponseValidationError';
  } catch {
    return false;
  }
}

function labelOf(request: HttpRequest): string {
  return `${request.method} ${request.path}`;
}

function parseJsonBody(bytes: Uint8Array, label: string): unknown {
  if (bytes.length === 0) return null;
  const text = decoder.decode(bytes);
  try {
    return JSON.parse(text);
  } catch (error) {
    if (text.trim() === '') return null;
    throw errorFromNetworkBody(label, text, error);
  }
}

function errorFromNetworkBody(label: string, text: string, cause: unknown): StoreError {
  return errorFromNetwork(
    label,
    new Error(`response is not JSON: ${text.slice(0, 200)}`, { cause }),
  );
}
