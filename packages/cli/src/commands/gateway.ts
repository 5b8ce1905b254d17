import { LightningStoreClient } from '@arclight/client';
import { type BackendConfig, DEFAULT_BODY_LIMIT, startGateway } from '@arclight/gateway';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { collect, parseByteSize, parsePort } from './parse-options.js';

export const DEFAULT_GATEWAY_PORT = 4800;

export interface GatewayCommandOptions {
  host: string;
  port: number;
  backend: string[];
  backendKey?: string;
  servedModel?: string;
  tokenIds: boolean;
  store?: string;
  storeToken?: string;
  otlpEndpoint?: string;
  token?: string;
  outsideRollout: 'forward' | 'reject';
  logprobs: boolean;
  override?: string[];
  retries: number;
  requestTimeout: number;
  streamTimeout: number;
  bodyLimit: number;
  pauseMode: 'wait' | 'reject';
  healthInterval: number;
}

function parseNonNegative(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new InvalidArgumentError(`expected a non-negative number, got "${value}"`);
  return n;
}

/** `[model=]url` → a backend (several `--backend` flags may name the same model). */
export function parseBackends(
  values: readonly string[],
  options: GatewayCommandOptions,
): BackendConfig[] {
  return values.map((value) => {
    const eq = value.indexOf('=');
    const hasModel = eq > 0 && !value.slice(0, eq).includes('://');
    const url = hasModel ? value.slice(eq + 1) : value;
    try {
      new URL(url);
    } catch {
      throw new InvalidArgumentError(
        `--backend: "${url}" is not a URL (expected [model=]http://host:port/v1)`,
      );
    }
    return {
      url,
      models: hasModel ? [value.slice(0, eq)] : undefined,
      apiKey: options.backendKey,
      servedModel: options.servedModel,
      tokenIds: options.tokenIds,
    };
  });
}

/** `mode.field=value` flags → `{ mode: { field: value } }` (values parsed as JSON when they are JSON). */
export function parseOverrides(values: readonly string[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const value of values) {
    const match = /^([^.=]+)\.([^=]+)=(.*)$/.exec(value);
    if (!match)
      throw new InvalidArgumentError(
        `--override: expected mode.field=value (e.g. train.temperature=1.0), got "${value}"`,
      );
    const [, mode, field, raw] = match as unknown as [string, string, string, string];
    let parsed: unknown = raw;
    try {
      parsed = JSON.parse(raw);
    } catch {
      // a plain string
    }
    out[mode] = { ...out[mode], [field]: parsed };
  }
  return out;
}

/** `arclight gateway`: the LLM gateway in front of vLLM-like servers, recording rollouts' calls into a store. */
export function registerGatewayCommand(program: Command): void {
  program
    .command('gateway')
    .description(
      'Run the LLM gateway: OpenAI/Anthropic routes per rollout, token-exact spans to a store',
    )
    .requiredOption(
      '--backend <[model=]url>',
      'backend OpenAI base URL, e.g. http://gpu1:8000/v1 (repeatable)',
      collect,
    )
    .option('--host <host>', 'interface to bind', '127.0.0.1')
    .option('--port <port>', 'TCP port (0 picks a free one)', parsePort, DEFAULT_GATEWAY_PORT)
    .addOption(
      new Option('--backend-key <key>', 'API key sent to the backends').env(
        'ARCLIGHT_GATEWAY_BACKEND_KEY',
      ),
    )
    .option('--served-model <name>', 'replace the model name of every call with this one')
    .option('--no-token-ids', 'do not add return_token_ids (backends that reject unknown fields)')
    .option(
      '--store <url>',
      'store server to record into (Arclight or upstream `agl store`), e.g. http://127.0.0.1:4747',
    )
    .addOption(
      new Option('--store-token <token>', 'token of that store server').env('ARCLIGHT_STORE_TOKEN'),
    )
    .option('--otlp-endpoint <url>', 'send spans to this OTLP/HTTP traces endpoint instead')
    .addOption(
      new Option('--token <token>', 'require this gateway token from agents').env(
        'ARCLIGHT_GATEWAY_TOKEN',
      ),
    )
    .addOption(
      new Option('--outside-rollout <what>', 'calls without rollout ids')
        .choices(['forward', 'reject'])
        .default('forward'),
    )
    .option('--logprobs', 'also ask backends for logprobs', false)
    .option(
      '--override <mode.field=value>',
      'force a request field per rollout mode, e.g. train.temperature=1.0 (repeatable)',
      collect,
    )
    .option('--retries <n>', 'retries on connection errors, 429 and 5xx', parseNonNegative, 2)
    .option('--request-timeout <ms>', 'timeout until a backend answers', parseNonNegative, 300_000)
    .option('--stream-timeout <ms>', 'longest stream', parseNonNegative, 600_000)
    .option(
      '--body-limit <bytes>',
      'largest request body, e.g. 16mb',
      parseByteSize,
      DEFAULT_BODY_LIMIT,
    )
    .addOption(
      new Option('--pause-mode <mode>', 'paused gateway: wait or reject (429)')
        .choices(['wait', 'reject'])
        .default('wait'),
    )
    .option(
      '--health-interval <ms>',
      'backend health-check interval (0 = off)',
      parseNonNegative,
      10_000,
    )
    .action(async (options: GatewayCommandOptions) => {
      process.exitCode = await runGateway(options);
    });
}

const fail = (message: string): number => {
  process.stderr.write(`arclight gateway: ${message}\n`);
  return 1;
};

/** Runs the gateway until SIGINT/SIGTERM; resolves to the process exit code. */
export async function runGateway(options: GatewayCommandOptions): Promise<number> {
  let backends: BackendConfig[];
  let overrides: Record<string, Record<string, unknown>>;
  try {
    backends = parseBackends(options.backend, options);
    overrides = parseOverrides(options.override ?? []);
  } catch (error) {
    return fail((error as Error).message);
  }
  const store = options.store
    ? new LightningStoreClient(options.store, { token: options.storeToken })
    : null;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  try {
    gateway = await startGateway({
      backends,
      host: options.host,
      port: options.port,
      store,
      otlpEndpoint: options.otlpEndpoint,
      token: options.token,
      outsideRollout: options.outsideRollout,
      requestLogprobs: options.logprobs,
      samplingOverrides: overrides,
      retry: { maxRetries: options.retries },
      requestTimeoutMs: options.requestTimeout,
      streamTimeoutMs: options.streamTimeout,
      bodyLimit: options.bodyLimit,
      pauseMode: options.pauseMode,
      healthCheckIntervalMs: options.healthInterval,
      logger: (line) => process.stderr.write(`${line}\n`),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      return fail(`port ${options.port} is already in use on ${options.host} (EADDRINUSE)`);
    return fail(`cannot start: ${(error as Error).message}`);
  }
  const recording = options.otlpEndpoint
    ? `spans over OTLP to ${options.otlpEndpoint}`
    : options.store
      ? `spans to ${options.store}`
      : 'no store: calls are forwarded, spans are not kept';
  process.stdout.write(
    `Arclight gateway listening on ${gateway.url} (${backends.length} backend(s); ${recording})\n` +
      `  agents: ${gateway.url}/rollout/<rollout_id>/attempt/<attempt_id>/v1\n`,
  );
  const signal = await new Promise<NodeJS.Signals>((resolveSignal) => {
    process.once('SIGINT', () => resolveSignal('SIGINT'));
    process.once('SIGTERM', () => resolveSignal('SIGTERM'));
  });
  process.stderr.write(`arclight gateway: ${signal} received, flushing spans...\n`);
  await gateway.stop();
  process.stderr.write('arclight gateway: stopped\n');
  return 0;
}
