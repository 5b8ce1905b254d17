import type { Backend, BackendPool } from './backend-pool.js';

/** Bounded retries with capped exponential backoff (connection errors, 429 and 5xx; never mid-stream). */
export interface RetryPolicy {
  /** Further attempts after the first (each on another backend when there is one). Default 2. */
  maxRetries: number;
  /** First backoff; doubles per retry. Default 100 ms. */
  baseDelayMs: number;
  /** Cap of one backoff (also of a backend's `Retry-After`). Default 2 000 ms. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 2_000 };

/** A failure before any backend answered (no backend for the model, every attempt failed to connect). */
export class ForwardError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly type: string,
  ) {
    super(message);
    this.name = 'ForwardError';
  }
}

export interface ForwardRequest {
  model: string | undefined;
  /** Path under the backend's base URL, e.g. `/chat/completions`. */
  path: string;
  method: string;
  /** The JSON body for a given backend (token-id fields depend on it); undefined for GET. */
  bodyFor?: (backend: Backend) => string;
  /** Client headers to pass on (content negotiation, OpenAI/Anthropic extras), without credentials. */
  headers: Record<string, string>;
  signal: AbortSignal;
}

export interface ForwardResult {
  response: Response;
  backend: Backend;
  attempts: number;
  /** Call once the response body is consumed or abandoned (least-outstanding accounting). */
  release(): void;
}

function retryable(status: number): boolean {
  return status === 429 || status >= 500;
}

function backoff(policy: RetryPolicy, retry: number, retryAfter: string | null): number {
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  const wanted = Number.isFinite(seconds) ? seconds * 1000 : policy.baseDelayMs * 2 ** retry;
  return Math.max(0, Math.min(policy.maxDelayMs, wanted));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener('abort', abort, { once: true });
  });
}

/**
 * Sends a call to the pool: picks a backend (least outstanding), retries connection errors, 429 and 5xx on
 * another backend with backoff, and returns the first answer that is not retryable — or the last answer when
 * retries run out (so the client sees the backend's own status and body).
 */
export async function forward(
  pool: BackendPool,
  request: ForwardRequest,
  policy: RetryPolicy,
): Promise<ForwardResult> {
  const tried = new Set<Backend>();
  let lastError = '';
  for (let attempt = 0; attempt <= policy.maxRetries; attempt++) {
    const backend = pool.pick(request.model, tried);
    if (!backend) {
      throw new ForwardError(
        `no backend serves model '${request.model ?? ''}'`,
        404,
        'model_not_found',
      );
    }
    tried.add(backend);
    const headers: Record<string, string> = { ...request.headers };
    if (backend.config.apiKey) headers.authorization = `Bearer ${backend.config.apiKey}`;
    const body = request.bodyFor?.(backend);
    if (body !== undefined) headers['content-type'] = 'application/json';
    backend.outstanding++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      backend.outstanding--;
    };
    const last = attempt === policy.maxRetries;
    let response: Response;
    try {
      response = await fetch(`${backend.url}${request.path}`, {
        method: request.method,
        headers,
        body,
        signal: request.signal,
      });
    } catch (error) {
      release();
      if (request.signal.aborted) throw request.signal.reason ?? error;
      backend.healthy = false;
      backend.failures++;
      lastError = connectionMessage(error);
      if (last) break;
      await sleep(backoff(policy, attempt, null), request.signal);
      continue;
    }
    if (retryable(response.status) && !last) {
      backend.failures++;
      await response.body?.cancel().catch(() => undefined);
      release();
      await sleep(backoff(policy, attempt, response.headers.get('retry-after')), request.signal);
      continue;
    }
    backend.served++;
    backend.healthy = true;
    return { response, backend, attempts: attempt + 1, release };
  }
  throw new ForwardError(
    `no backend reachable after ${policy.maxRetries + 1} attempt(s): ${lastError}`,
    502,
    'backend_unreachable',
  );
}

function connectionMessage(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
