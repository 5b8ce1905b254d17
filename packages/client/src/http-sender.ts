import http from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';

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
 * than the global `fetch`. Idle kept-alive sockets do not keep the process alive. The request options of a
 * server root (protocol, host, port, agent) are worked out once; per request only the path is cut off the URL.
 */
export function keepAliveSender(): Sender {
  const agents = {
    'http:': new http.Agent({ keepAlive: true }),
    'https:': new https.Agent({ keepAlive: true }),
  };
  const origins = new Map<string, Origin>();
  const originOf = (origin: string): Origin => {
    let known = origins.get(origin);
    if (!known) {
      const options = urlToHttpOptions(new URL(origin));
      const secure = options.protocol === 'https:';
      known = {
        module: secure ? https : http,
        base: {
          protocol: options.protocol,
          hostname: options.hostname,
          port: options.port,
          auth: options.auth,
          agent: secure ? agents['https:'] : agents['http:'],
        },
      };
      origins.set(origin, known);
    }
    return known;
  };
  return (url, init) =>
    new Promise<SentAnswer>((resolve, reject) => {
      const cut = pathStart(url);
      const { module, base } = originOf(url.slice(0, cut));
      const headers: Record<string, string | number> = { ...init.headers };
      if (init.body !== undefined) headers['content-length'] = Buffer.byteLength(init.body);
      const rest = url.slice(cut);
      const path = rest.startsWith('/') ? rest : `/${rest}`;
      const request = module.request(
        { ...base, path, method: init.method, headers },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', fail);
          response.on('end', () => {
            clearTimeout(timer);
            const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
            resolve({ status: response.statusCode ?? 0, body });
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
      // Headers and body leave in one write: Node joins them when the body comes with `end()`.
      request.end(init.body);
    });
}

interface Origin {
  module: typeof http | typeof https;
  base: http.RequestOptions;
}

/** Index of the path in an absolute URL (`http://host:port/path?query` → index of `/path`; length if none). */
function pathStart(url: string): number {
  const scheme = url.indexOf('//');
  if (scheme < 0) throw new TypeError(`not an absolute URL: ${url}`);
  const slash = url.indexOf('/', scheme + 2);
  const query = url.indexOf('?', scheme + 2);
  if (slash < 0) return query < 0 ? url.length : query;
  return query >= 0 && query < slash ? query : slash;
}
