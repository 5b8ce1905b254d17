import http from 'node:http';
import https from 'node:https';

/** One HTTP exchange as the transport needs it. */
export interface SendInit {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** Upper bound for the whole exchange, body included. */
  timeoutMs: number;
}

export interface SentAnswer {
  status: number;
  body: Uint8Array;
}

/** Sends one request; rejects on network errors and timeouts (a timeout rejects with a `TimeoutError`). */
export type Sender = (url: string, init: SendInit) => Promise<SentAnswer>;

/** A sender over a user-supplied `fetch`. */
export function fetchSender(fetchImpl: typeof globalThis.fetch): Sender {
  return async (url, init) => {
    const response = await fetchImpl(url, {
      method: init.method,
      headers: init.headers,
      body: init.body as RequestInit['body'],
      signal: AbortSignal.timeout(init.timeoutMs),
    });
    return { status: response.status, body: new Uint8Array(await response.arrayBuffer()) };
  };
}

/**
 * The default sender: `node:http(s)` with keep-alive agents (one per client), a few times cheaper per request
 * than the global `fetch`. Idle kept-alive sockets do not keep the process alive.
 */
export function keepAliveSender(): Sender {
  const agents = {
    'http:': new http.Agent({ keepAlive: true }),
    'https:': new https.Agent({ keepAlive: true }),
  };
  return (url, init) =>
    new Promise<SentAnswer>((resolve, reject) => {
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      const agent = secure ? agents['https:'] : agents['http:'];
      const headers: Record<string, string | number> = { ...init.headers };
      if (init.body !== undefined) headers['content-length'] = Buffer.byteLength(init.body);
      const request = (secure ? https : http).request(
        target,
        { method: init.method, headers, agent },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', fail);
          response.on('end', () => {
            clearTimeout(timer);
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) });
          });
        },
      );
      const timer = setTimeout(() => {
        const error = new Error(`no answer within ${init.timeoutMs} ms`);
        error.name = 'TimeoutError';
        request.destroy(error);
      }, init.timeoutMs);
      function fail(error: Error): void {
        clearTimeout(timer);
        reject(error);
      }
      request.on('error', fail);
      request.end(init.body);
    });
}
