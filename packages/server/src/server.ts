import type { LightningStore } from '@arclight/store';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { type LightningStoreServerOptions, resolveOptions } from './options.js';

export interface LightningStoreServer {
  /** The Fastify app (for `app.inject(...)` in tests). */
  readonly app: FastifyInstance;
  /** Starts listening; resolves to the base URL, e.g. `http://127.0.0.1:4747`. */
  listen(): Promise<string>;
  /**
   * Graceful shutdown: stop accepting connections, let in-flight requests finish, then resolve. Pending
   * `waits/rollouts` long-polls are answered early; connections still busy after `drainTimeoutMs` (a client that
   * stopped reading its answer) are closed. The store is left open.
   */
  close(): Promise<void>;
}

/** Serves `store` over Agent Lightning v0.x's HTTP API (`/v1/agl/*`) and OTLP/HTTP (`/v1/traces`). */
export function createLightningStoreServer(
  store: LightningStore,
  options: LightningStoreServerOptions = {},
): LightningStoreServer {
  const resolved = resolveOptions(options);
  let signalClosing!: () => void;
  const closing = new Promise<void>((resolve) => {
    signalClosing = resolve;
  });
  const app = buildApp(store, resolved, closing);
  let closed: Promise<void> | undefined;

  return {
    app,
    async listen() {
      await app.listen({ host: resolved.host, port: resolved.port });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : resolved.port;
      return `http://${connectableHost(resolved.host)}:${port}`;
    },
    close() {
      if (!closed) {
        signalClosing();
        const cutOff = setTimeout(() => app.server.closeAllConnections(), resolved.drainTimeoutMs);
        closed = app.close().finally(() => clearTimeout(cutOff));
      }
      return closed;
    },
  };
}

/** A host clients can connect to: wildcard binds are reached through loopback; IPv6 gets brackets. */
function connectableHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
