import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake server received. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

/** What to answer: a status and JSON body, or `'hang'` to never answer. */
export type FakeAnswer = { status: number; json?: unknown } | 'hang';

/** `undefined` → the default: health answers 200, anything else 404. */
export type FakeHandler = (request: SeenRequest, index: number) => FakeAnswer | undefined;

/**
 * A local HTTP server whose answers are scripted per test. `GET /v1/agl/health` answers 200 unless the
 * handler says otherwise. Every request is recorded in `requests`.
 */
export class FakeServer {
  readonly requests: SeenRequest[] = [];
  /** TCP connections accepted so far. */
  connections = 0;
  private readonly server: Server;
  private readonly hanging = new Set<ServerResponse>();
  url = '';

  constructor(private handler: FakeHandler) {
    this.server = createServer((req, res) => void this.serve(req, res));
    this.server.on('connection', () => {
      this.connections += 1;
    });
  }

  static async start(handler: FakeHandler): Promise<FakeServer> {
    const fake = new FakeServer(handler);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    const { port } = fake.server.address() as AddressInfo;
    fake.url = `http://127.0.0.1:${port}`;
    return fake;
  }

  setHandler(handler: FakeHandler): void {
    this.handler = handler;
  }

  /** Requests to `path` (health probes excluded unless asked for). */
  to(path: string): SeenRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  /** The sequence of `METHOD path` the server saw. */
  trail(): string[] {
    return this.requests.map((request) => `${request.method} ${request.path}`);
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    const seen: SeenRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    const index = this.requests.push(seen) - 1;
    let answer = this.handler(seen, index);
    if (answer === undefined) {
      answer =
        seen.path === '/v1/agl/health'
          ? { status: 200, json: { status: 'ok' } }
          : { status: 404, json: { detail: 'Not Found' } };
    }
    if (answer === 'hang') {
      this.hanging.add(res);
      return;
    }
    const body = answer.json === undefined ? '' : JSON.stringify(answer.json);
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(body);
  }
}

/** A port nothing listens on (bound then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
