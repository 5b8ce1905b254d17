import { dashboardAssetsDir } from '@arclight/dashboard';
import {
  createLightningStoreServer,
  DEFAULT_BODY_LIMIT,
  DEFAULT_HOST,
  DEFAULT_PORT,
  serveStaticSite,
} from '@arclight/server';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { collect, parseByteSize, parsePort, parsePositiveInt } from './parse-options.js';
import { BACKENDS, type Backend, openStore } from './store-backend.js';
import { isStoreWorker, reportToPrimary, runPrimary } from './store-workers.js';

export { BACKENDS, type Backend } from './store-backend.js';

export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface StoreCommandOptions {
  host: string;
  port: number;
  backend: Backend;
  db: string;
  databaseUrl?: string;
  schema: string;
  workers: number;
  token?: string;
  corsOrigin?: string[];
  bodyLimit: number;
  logLevel?: LogLevel;
  /** Serve Prometheus metrics on /metrics and /v1/prometheus/. */
  metrics?: boolean;
  /** Upstream's spelling of --metrics (`agl store --tracker prometheus`). */
  tracker?: 'prometheus' | 'console';
  /** Serve the SQLite file read-only (writes answer 405). */
  readOnly?: boolean;
  /** In-memory backend: cap on estimated span bytes. */
  memoryCap?: number;
  /** In-memory backend: cap on the number of spans. */
  memorySpanCap?: number;
  maxSpansPerRequest?: number;
  maxAttributesPerSpan?: number;
  maxAttributeValueSize?: number;
  maxDepth?: number;
  maxItemsPerResponse?: number;
  maxDecompressedSize?: number;
  /** Serve the dashboard at `/` (`--no-dashboard` turns it off). */
  dashboard?: boolean;
}

/** `arclight store`: serve a LightningStore over HTTP (upstream `agl store`). */
export function registerStoreCommand(program: Command): void {
  program
    .command('store')
    .description('Run a LightningStore server (Agent Lightning v0.x HTTP API + OTLP/HTTP traces)')
    .option('--host <host>', 'interface to bind', DEFAULT_HOST)
    .option('--port <port>', 'TCP port (0 picks a free one)', parsePort, DEFAULT_PORT)
    .addOption(
      new Option('--backend <backend>', 'storage backend').choices(BACKENDS).default('sqlite'),
    )
    .option('--db <file>', 'SQLite database file (sqlite backend)', './arclight.sqlite')
    .addOption(
      new Option(
        '--database-url <url>',
        'PostgreSQL URL, e.g. postgres://user:password@host:5432/db (postgres backend)',
      ).env('ARCLIGHT_DATABASE_URL'),
    )
    .option('--schema <name>', 'PostgreSQL schema holding the store (postgres backend)', 'arclight')
    .option(
      '--workers <n>',
      'server processes sharing the port (postgres backend; Node cluster)',
      parseWorkers,
      1,
    )
    .addOption(
      new Option('--token <token>', 'require this shared secret (Bearer or x-api-key)').env(
        'ARCLIGHT_STORE_TOKEN',
      ),
    )
    .option('--cors-origin <origin>', 'allow this CORS origin (repeatable; "*" for any)', collect)
    .option(
      '--body-limit <bytes>',
      'largest request body, e.g. 64mb',
      parseByteSize,
      DEFAULT_BODY_LIMIT,
    )
    .option('--no-dashboard', 'do not serve the dashboard (the web UI) at /')
    .addOption(
      new Option('--log-level <level>', 'server log level (JSON lines on stderr)')
        .choices(LOG_LEVELS)
        .default('error'),
    )
    .option('--metrics', 'serve Prometheus metrics on /metrics and /v1/prometheus/')
    .addOption(
      new Option('--tracker <tracker>', 'upstream spelling: "prometheus" is --metrics').choices([
        'prometheus',
        'console',
      ]),
    )
    .option('--read-only', 'serve an existing SQLite store read-only (writes answer 405)')
    .option(
      '--memory-cap <bytes>',
      'memory backend: cap on span data, e.g. 2gb; spans of finished rollouts are evicted oldest first',
      parseByteSize,
    )
    .option(
      '--memory-span-cap <spans>',
      'memory backend: cap on the number of spans',
      parsePositiveInt,
    )
    .option(
      '--max-spans-per-request <n>',
      'spans in one OTLP request (default 20000)',
      parsePositiveInt,
    )
    .option(
      '--max-attributes-per-span <n>',
      'attributes per span, event or link (default 8192)',
      parsePositiveInt,
    )
    .option(
      '--max-attribute-value-size <bytes>',
      'size of one attribute value (default 16mb)',
      parseByteSize,
    )
    .option(
      '--max-depth <n>',
      'nesting depth of attribute values and JSON fields (default 64)',
      parsePositiveInt,
    )
    .option(
      '--max-items-per-response <n>',
      'rollouts, attempts, spans, resources or workers in one page answer, whatever limit asks for (default 100000)',
      parsePositiveInt,
    )
    .option(
      '--max-decompressed-size <bytes>',
      'size of a gzip OTLP body once decompressed (default: --body-limit)',
      parseByteSize,
    )
    .action(async (options: StoreCommandOptions) => {
      process.exitCode = await runStore(options);
    });
}

function parseWorkers(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256)
    throw new InvalidArgumentError('expected a whole number of processes from 1 to 256');
  return n;
}

const fail = (message: string): number => {
  process.stderr.write(`arclight store: ${message}\n`);
  return 1;
};

function listenFailure(error: unknown, options: StoreCommandOptions): string {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${options.host}:${options.port}`;
  if (code === 'EADDRINUSE')
    return `port ${options.port} is already in use on ${options.host} (EADDRINUSE)`;
  if (code === 'EACCES') return `permission denied to listen on ${where} (EACCES)`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return `cannot bind to host ${options.host} (${code})`;
  return `cannot listen on ${where}: ${(error as Error).message}`;
}

/** Runs the server until SIGINT/SIGTERM; resolves to the process exit code. */
export async function runStore(options: StoreCommandOptions): Promise<number> {
  const worker = isStoreWorker();
  if (options.workers > 1 && !worker) {
    if (options.backend !== 'postgres') {
      return fail(
        `--workers ${options.workers} needs --backend postgres: the ${options.backend} backend lives in one ` +
          'process (several processes would not share its data)',
      );
    }
    // Open once here so that the schema is created/migrated before the workers start, and errors show once.
    let description: string;
    try {
      const opened = await openStore(options);
      description = opened.description;
      await opened.store.close();
    } catch (error) {
      return fail(`cannot open the ${options.backend} store: ${(error as Error).message}`);
    }
    return runPrimary({
      workers: options.workers,
      description,
      write: (line) => process.stdout.write(line),
      fail,
    });
  }
  let opened: Awaited<ReturnType<typeof openStore>>;
  try {
    opened = await openStore(options);
  } catch (error) {
    const message = `cannot open the ${options.backend} store: ${(error as Error).message}`;
    if (worker) reportToPrimary({ type: 'arclight-store-failed', message });
    return fail(message);
  }
  const { store, description } = opened;
  const server = createLightningStoreServer(store, {
    host: options.host,
    port: options.port,
    token: options.token,
    corsOrigins: options.corsOrigin,
    bodyLimit: options.bodyLimit,
    metrics: options.metrics === true || options.tracker === 'prometheus',
    readOnly: options.readOnly === true,
    limits: {
      maxSpansPerRequest: options.maxSpansPerRequest,
      maxAttributesPerSpan: options.maxAttributesPerSpan,
      maxAttributeValueBytes: options.maxAttributeValueSize,
      maxDepth: options.maxDepth,
      maxDecompressedBytes: options.maxDecompressedSize,
      maxItemsPerResponse: options.maxItemsPerResponse,
    },
    logger:
      !options.logLevel || options.logLevel === 'silent'
        ? false
        : { level: options.logLevel, stream: process.stderr },
  });

  let dashboard = false;
  if (options.dashboard !== false) {
    try {
      await serveStaticSite(server.app, { root: dashboardAssetsDir() });
      dashboard = true;
    } catch (error) {
      process.stderr.write(
        `arclight store: not serving the dashboard: ${(error as Error).message}\n`,
      );
    }
  }
  let url: string;
  try {
    url = await server.listen();
  } catch (error) {
    await server.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    const message = listenFailure(error, options);
    if (worker) reportToPrimary({ type: 'arclight-store-failed', message });
    return fail(message);
  }
  if (worker) {
    reportToPrimary({ type: 'arclight-store-listening', url });
    await workerStopRequest();
    await server.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    if (process.connected) process.disconnect();
    return 0;
  }
  const auth = options.token ? ', token required' : '';
  const metrics =
    options.metrics || options.tracker === 'prometheus' ? `, metrics: ${url}/metrics` : '';
  // One line on stdout (scripts parse it); with the dashboard, where to open it.
  const site = dashboard ? ` — dashboard: ${url}/` : '';
  process.stdout.write(
    `Arclight LightningStore listening on ${url} (${description}${auth}${metrics})${site}\n`,
  );

  const signal = await new Promise<NodeJS.Signals>((resolveSignal) => {
    process.once('SIGINT', () => resolveSignal('SIGINT'));
    process.once('SIGTERM', () => resolveSignal('SIGTERM'));
  });
  // A second signal while draining means "stop now".
  const force = () => process.exit(1);
  process.once('SIGINT', force);
  process.once('SIGTERM', force);
  process.stderr.write(`arclight store: ${signal} received, finishing in-flight requests...\n`);
  try {
    await server.close();
    await store.close();
  } catch (error) {
    return fail(`error while shutting down: ${(error as Error).message}`);
  } finally {
    process.removeListener('SIGINT', force);
    process.removeListener('SIGTERM', force);
  }
  process.stderr.write('arclight store: stopped\n');
  return 0;
}

/**
 * A worker stops when the primary sends SIGTERM or goes away. SIGINT is ignored: Ctrl-C reaches the whole
 * process group, and the primary turns it into an orderly SIGTERM for every worker.
 */
function workerStopRequest(): Promise<void> {
  return new Promise((resolveStop) => {
    process.on('SIGINT', () => undefined);
    process.once('SIGTERM', () => resolveStop());
    process.once('disconnect', () => resolveStop());
  });
}
