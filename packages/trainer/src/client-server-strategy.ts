import { LightningStoreClient, type LightningStoreClientOptions } from '@arclight/client';
import type { LightningStoreServer } from '@arclight/server';
import type { LightningStore } from '@arclight/store';
import { ENV, type Role, resolveHost, resolvePort, resolveRole, serverUrl } from './env.js';
import { checkRunnerCount, checkTimeout } from './in-process-strategy.js';
import { RunnerProcesses } from './runner-processes.js';
import type {
  AlgorithmBundle,
  ExecutionContext,
  ExecutionStrategy,
  RunnerBundle,
} from './strategy.js';
import { aborted, linkedController, settleWithGrace } from './timing.js';

export interface ClientServerStrategyOptions {
  /** `algorithm`, `runner` or `both`; default `ARCLIGHT_ROLE`, else `both`. */
  role?: Role;
  /** Host the server binds to / runners connect to; default `ARCLIGHT_SERVER_HOST`, else `127.0.0.1`. */
  serverHost?: string;
  /** Default `ARCLIGHT_SERVER_PORT`, else 4747; 0 picks a free port (role `both` only). */
  serverPort?: number;
  /** Runner processes to start (roles `runner` and `both`). Default 1. */
  nRunners?: number;
  /** Seconds between the cooperative stop and SIGTERM. Default 10. */
  gracefulTimeout?: number;
  /** Seconds between SIGTERM and SIGKILL (and after SIGKILL). Default 10. */
  terminateTimeout?: number;
  /** The script runner processes execute; default the main script (`process.argv[1]`). */
  runnerScript?: string;
  /** Its arguments; default this process's (`process.argv.slice(2)`). */
  runnerArgs?: readonly string[];
  /** Node options of runner processes; default this process's (`process.execArgv`, e.g. loaders). */
  execArgv?: readonly string[];
  /** Options of the runners' `LightningStoreClient`s. */
  clientOptions?: LightningStoreClientOptions;
}

/**
 * The algorithm serves the store over HTTP (`@arclight/server`) and runners are separate processes that
 * reach it with `LightningStoreClient` (upstream `ClientServerExecutionStrategy`).
 *
 * - `both` (default): serve, start `nRunners` runner processes, run the algorithm; when it returns, stop the
 *   runners (stop message → SIGTERM → SIGKILL), then close the server.
 * - `algorithm`: serve and run the algorithm; runners connect from elsewhere.
 * - `runner`: run `nRunners` runners against `serverHost:serverPort` (one runs in this process) until
 *   stopped (Ctrl+C) or `maxRollouts`.
 *
 * Runner processes re-run the training script (`runnerScript`) with `ARCLIGHT_ROLE=runner` and
 * `ARCLIGHT_WORKER_ID=<n>`: there `Trainer.fit`/`dev` become a single runner for the agent given to it.
 */
export class ClientServerExecutionStrategy implements ExecutionStrategy {
  readonly role: Role;
  readonly serverHost: string;
  serverPort: number;
  readonly nRunners: number;
  readonly gracefulTimeout: number;
  readonly terminateTimeout: number;
  readonly clientOptions: LightningStoreClientOptions;
  private readonly runnerScript: string | undefined;
  private readonly runnerArgs: readonly string[];
  private readonly execArgv: readonly string[];
  private processes: RunnerProcesses | null = null;

  constructor(options: ClientServerStrategyOptions = {}) {
    this.role = resolveRole(options.role);
    this.serverHost = resolveHost(options.serverHost);
    this.serverPort = resolvePort(options.serverPort);
    this.nRunners = checkRunnerCount(options.nRunners ?? 1);
    this.gracefulTimeout = checkTimeout('gracefulTimeout', options.gracefulTimeout ?? 10);
    this.terminateTimeout = checkTimeout('terminateTimeout', options.terminateTimeout ?? 10);
    this.runnerScript = options.runnerScript;
    this.runnerArgs = options.runnerArgs ?? process.argv.slice(2);
    this.execArgv = options.execArgv ?? process.execArgv;
    this.clientOptions = options.clientOptions ?? {};
  }

  /** Pids of the runner processes of the current (or last) execution. */
  get runnerPids(): number[] {
    return this.processes?.pids ?? [];
  }

  async execute(
    algorithm: AlgorithmBundle,
    runner: RunnerBundle,
    ctx: ExecutionContext,
  ): Promise<void> {
    if (this.role === 'runner') return this.executeRunners(runner, ctx);
    const store = ctx.store();
    // Loaded here so that runner processes never load the HTTP server.
    const { createLightningStoreServer } = await import('@arclight/server');
    const server = createLightningStoreServer(store, {
      host: this.serverHost,
      port: this.serverPort,
    });
    const url = new URL(await server.listen());
    ctx.logger.info?.(`Store server listening on ${url.origin}`);
    try {
      if (this.role === 'algorithm') {
        await this.runAlgorithm(algorithm, store, linkedController(ctx.signal), ctx);
      } else {
        await this.executeBoth(algorithm, store, url, ctx);
      }
    } finally {
      await closeServer(server, ctx);
    }
  }

  private async executeBoth(
    algorithm: AlgorithmBundle,
    store: LightningStore,
    url: URL,
    ctx: ExecutionContext,
  ): Promise<void> {
    const stop = linkedController(ctx.signal);
    let fatal: Error | null = null;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const processes = this.startProcesses(host, url.port, ctx, (error) => {
      fatal ??= error;
      stop.abort();
    });
    let failure: unknown = null;
    try {
      await this.runAlgorithm(algorithm, store, stop, ctx);
    } catch (error) {
      failure = error;
    } finally {
      stop.abort();
      await processes.shutdown(this.gracefulTimeout, this.terminateTimeout);
    }
    if (fatal) throw fatal;
    if (failure) throw failure;
    this.checkExits(processes, ctx);
  }

  private async executeRunners(runner: RunnerBundle, ctx: ExecutionContext): Promise<void> {
    const stop = linkedController(ctx.signal);
    if (this.nRunners === 1) {
      const client = new LightningStoreClient(
        serverUrl(this.serverHost, this.serverPort),
        this.clientOptions,
      );
      try {
        await runner(client, 0, stop.signal);
      } finally {
        await client.close();
      }
      return;
    }
    let fatal: Error | null = null;
    const processes = this.startProcesses(
      this.serverHost,
      String(this.serverPort),
      ctx,
      (error) => {
        fatal ??= error;
        stop.abort();
      },
    );
    await Promise.race([processes.waitAll(), aborted(stop.signal)]);
    await processes.shutdown(this.gracefulTimeout, this.terminateTimeout);
    if (fatal) throw fatal;
    this.checkExits(processes, ctx);
  }

  private startProcesses(
    host: string,
    port: string,
    ctx: ExecutionContext,
    onFatal: (error: Error) => void,
  ): RunnerProcesses {
    const script = this.runnerScript ?? process.argv[1];
    if (!script) throw new Error('runnerScript: no main script to start runner processes with');
    const processes = new RunnerProcesses({
      count: this.nRunners,
      script,
      args: this.runnerArgs,
      execArgv: this.execArgv,
      env: { [ENV.ROLE]: 'runner', [ENV.SERVER_HOST]: host, [ENV.SERVER_PORT]: port },
      gracefulTimeout: this.gracefulTimeout,
      logger: ctx.logger,
    });
    this.processes = processes;
    processes.start(onFatal);
    return processes;
  }

  private async runAlgorithm(
    algorithm: AlgorithmBundle,
    store: LightningStore,
    stop: AbortController,
    ctx: ExecutionContext,
  ): Promise<void> {
    const done = algorithm(store, stop.signal);
    if (!(await settleWithGrace(done, stop.signal, this.gracefulTimeout))) {
      ctx.logger.warn(`The algorithm did not stop within ${this.gracefulTimeout}s; abandoning it.`);
    }
  }

  /** Upstream raises for runner processes that ended other than with code 0 or SIGTERM — unless stopped by the user. */
  private checkExits(processes: RunnerProcesses, ctx: ExecutionContext): void {
    const bad = processes.unexpectedExits();
    if (bad.length === 0) return;
    const list = bad
      .map(
        (e) =>
          `Worker-${e.workerId} (pid ${e.pid}, ${e.signal ? `signal ${e.signal}` : `code ${e.code}`})`,
      )
      .join(', ');
    if (ctx.signal.aborted) {
      ctx.logger.warn(`Runner processes ended abnormally during shutdown: ${list}`);
      return;
    }
    throw new Error(`Runner processes exited unexpectedly: ${list}`);
  }
}

async function closeServer(server: LightningStoreServer, ctx: ExecutionContext): Promise<void> {
  try {
    await server.close();
  } catch (error) {
    ctx.logger.error('Could not close the store server.', error);
  }
}
