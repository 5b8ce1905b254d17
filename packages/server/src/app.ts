import { randomUUID } from 'node:crypto';
import type { LightningStore } from '@arclight/store';
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance } from 'fastify';
import { installAuth } from './http/auth.js';
import { installErrorHandlers } from './http/errors.js';
import { installJsonParser } from './http/json-parser.js';
import { LimitError } from './http/limits.js';
import { ServerMetrics } from './http/metrics.js';
import { installReadOnly } from './http/read-only.js';
import type { ResolvedServerOptions } from './options.js';
import { otlpTracesPlugin } from './otlp/routes.js';
import { registerAttemptRoutes } from './routes/attempts.js';
import type { RouteContext } from './routes/context.js';
import { registerExtensionRoutes } from './routes/extensions.js';
import { registerMiscRoutes } from './routes/misc.js';
import { registerQueueRoutes } from './routes/queues.js';
import { registerResourceRoutes } from './routes/resources.js';
import { registerRolloutRoutes } from './routes/rollouts.js';
import { registerSpanRoutes } from './routes/spans.js';
import { registerWorkerRoutes } from './routes/workers.js';

/**
 * While closing, responses to in-flight requests carry `Connection: close` and every connection that turns idle is
 * closed, so `close()` resolves as soon as the last in-flight request has been answered (keep-alive clients would
 * otherwise hold their sockets open until the keep-alive timeout).
 */
function installDrainOnClose(app: FastifyInstance, closing: Promise<void>): void {
  let isClosing = false;
  void closing.then(() => {
    isClosing = true;
  });
  // Callback-style hooks: on every request, an async hook would cost a promise and a microtask each.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (isClosing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (_request, _reply, done) => {
    if (isClosing) app.server.closeIdleConnections();
    done();
  });
}

/** Builds the Fastify app serving `store` (routes are registered once `app.ready()` resolves). */
export function buildApp(
  store: LightningStore,
  options: ResolvedServerOptions,
  closing: Promise<void>,
): FastifyInstance {
  const app = Fastify({
    logger: options.logger,
    bodyLimit: options.bodyLimit,
    // Answer requests that arrive on kept-alive connections during close() with 503, close idle ones.
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    genReqId: () => randomUUID(),
  });
  const metrics = options.metrics ? new ServerMetrics(store) : undefined;
  installErrorHandlers(app, (request, error) => {
    if (error instanceof LimitError) metrics?.markRejected(request, error.reason);
  });
  installDrainOnClose(app, closing);
  if (options.corsOrigins.length > 0) {
    const origins = options.corsOrigins;
    app.register(cors, {
      origin: origins.includes('*') ? true : origins,
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      exposedHeaders: '*',
      // Upstream (Starlette's CORSMiddleware) answers a preflight with 200, not the plugin's default 204.
      optionsSuccessStatus: 200,
    });
  }
  if (options.token !== undefined) installAuth(app, options.token);
  installJsonParser(app, options.limits);
  metrics?.install(app);
  if (options.readOnly) installReadOnly(app);

  const context: RouteContext = { store, closing, limits: options.limits };
  registerMiscRoutes(app, context);
  registerQueueRoutes(app, context);
  registerRolloutRoutes(app, context);
  registerAttemptRoutes(app, context);
  registerWorkerRoutes(app, context);
  registerResourceRoutes(app, context);
  registerSpanRoutes(app, context);
  registerExtensionRoutes(app, context); // Arclight extensions: routes/extensions.ts
  app.register(otlpTracesPlugin, { store, limits: options.limits, metrics });
  return app;
}
