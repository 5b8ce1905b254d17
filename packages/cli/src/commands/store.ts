import { resolve } from 'node:path';
import {
  createLightningStoreServer,
  DEFAULT_BODY_LIMIT,
  DEFAULT_HOST,
  DEFAULT_PORT,
} from '@arclight/server';
import { InMemoryLightningStore, type LightningStore, SqliteLightningStore } from '@arclight/store';
import { type Command, Option } from 'commander';
import { collect, parseByteSize, parsePort } from './parse-options.js';

export const BACKENDS = ['memory', 'sqlite'] as const;
export type Backend = (typeof BACKENDS)[number];

export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface StoreCommandOptions {
  host: string;
  port: number;
  backend: Backend;
  db: string;
  token?: string;
  corsOrigin?: string[];
  bodyLimit: number;
  logLevel?: LogLevel;
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
    .addOption(
      new Option('--log-level <level>', 'server log level (JSON lines on stderr)')
        .choices(LOG_LEVELS)
        .default('error'),
    )
    .action(async (options: StoreCommandOptions) => {
      process.exitCode = await runStore(options);
    });
}

function openStore(options: StoreCommandOptions): { store: LightningStore; description: string } {
  if (options.backend === 'memory')
    return { store: new InMemoryLightningStore(), description: 'backend: memory' };
  const path = resolve(options.db);
  return { store: new SqliteLightningStore({ path }), description: `backend: sqlite, db: ${path}` };
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
  let opened: ReturnType<typeof openStore>;
  try {
    opened = openStore(options);
  } catch (error) {
    return fail(`cannot open the ${options.backend} store: ${(error as Error).message}`);
  }
  const { store, description } = opened;
  const server = createLightningStoreServer(store, {
    host: options.host,
    port: options.port,
    token: options.token,
    corsOrigins: options.corsOrigin,
    bodyLimit: options.bodyLimit,
    logger:
      !options.logLevel || options.logLevel === 'silent'
        ? false
        : { level: options.logLevel, stream: process.stderr },
  });

  let url: string;
  try {
    url = await server.listen();
  } catch (error) {
    await server.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    return fail(listenFailure(error, options));
  }
  const auth = options.token ? ', token required' : '';
  process.stdout.write(`Arclight LightningStore listening on ${url} (${description}${auth})\n`);

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
