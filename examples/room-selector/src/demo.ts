import { createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TraceToMessages } from '@arclight/adapter';
import { APO } from '@arclight/algorithms';
import { LightningStoreClient } from '@arclight/client';
import type { Logger } from '@arclight/core';
import { type ExportSummary, exportFromStore } from '@arclight/export';
import { instrumentOpenAI, type Uninstrument } from '@arclight/instrumentation-openai';
import { LightningTracer } from '@arclight/otel';
import { type LightningStore, SqliteLightningStore } from '@arclight/store';
import { isRunnerProcess, Trainer } from '@arclight/trainer';
import OpenAI from 'openai';
import { baselinePrompt, roomSelector } from './agent.js';
import { type DemoEnv, type ModelSetup, setupModel } from './model.js';
import { ApoProgress, type Output } from './progress.js';
import { loadRoomTasks, type RoomSelectionTask, splitTrainVal } from './tasks.js';

export interface DemoOptions {
  /** Where the store, exports, best prompt and logs go. Default `./room-selector-run`. */
  outDir?: string;
  /**
   * A running store server to use instead of the SQLite file in `outDir` (e.g. `arclight store --backend
   * postgres --workers 2`); the runners and the export talk to it over HTTP.
   */
  storeUrl?: string;
  /** Runners (default 4). */
  nRunners?: number;
  /** `in-process` (default): runners are tasks of this process; `client-server`: runner processes over HTTP. */
  strategy?: 'in-process' | 'client-server';
  beamRounds?: number;
  beamWidth?: number;
  branchFactor?: number;
  gradientBatchSize?: number;
  valBatchSize?: number;
  /** APO's random seed (default 7). */
  seed?: number;
  /** The tasks (default: upstream's 57; first half trains, second half validates). */
  tasks?: RoomSelectionTask[];
  /** Export format for a trainer (default `verl-parquet` with token ids, else `trl-sft`). */
  format?: string;
  /** Use the simulated model even when OPENAI_* is set. */
  offline?: boolean;
  /** Use the real offline model (SmolLM2-135M-Instruct on the CPU) instead of the simulated one. */
  realModel?: boolean;
  env?: DemoEnv;
  out?: Output;
  /** Stop gracefully on Ctrl+C (default true). */
  handleSignals?: boolean;
}

export interface DemoSummary {
  simulated: boolean;
  /** `simulated`, `real-offline` (--real-model) or `api`. */
  model_kind: string;
  model: string;
  strategy: string;
  runners: number;
  rollouts: number;
  seed: { version: string; score: number | null };
  curve: Array<{ round: number; version: string; score: number }>;
  best: { version: string; score: number | null; template: string };
  files: { store: string; bestPrompt: string; log: string; summary: string };
  exports: ExportSummary[];
}

const removeOld = (dir: string, names: string[]) => {
  for (const name of names) rmSync(join(dir, name), { force: true });
};

/** Appends upstream-style log lines (`time [LEVEL] message`) to a file. */
function fileLogger(path: string): Logger & { close(): Promise<void> } {
  const stream = createWriteStream(path, { flags: 'w' });
  const write = (level: string, message: string) =>
    stream.write(`${new Date().toISOString()} [${level}] ${message}\n`);
  return {
    info: (m) => write('INFO', m),
    warn: (m) => write('WARNING', m),
    error: (m, e) => write('ERROR', e === undefined ? m : `${m}: ${String(e)}`),
    close: () => new Promise((r) => stream.end(r)),
  };
}

/**
 * The main demo: APO improves the room-selector prompt over a few beam rounds, with `nRunners` runners and a
 * SQLite store, then the store's rollouts are exported as triplets and as a trainer's dataset. In a runner
 * process of the client-server strategy this becomes one runner (see `Trainer.fit`) and does not return.
 */
export async function runDemo(options: DemoOptions = {}): Promise<DemoSummary> {
  const env = options.env ?? process.env;
  const out = options.out ?? process.stdout;
  const runner = isRunnerProcess();
  const outDir = resolve(options.outDir ?? 'room-selector-run');
  const storePath = options.storeUrl ?? join(outDir, 'arclight.sqlite');
  const tasks = options.tasks ?? loadRoomTasks();
  const { train, val } = splitTrainVal(tasks);
  const strategy = options.strategy ?? 'in-process';
  const nRunners = options.nRunners ?? 4;

  // One-time side effects only in the main process (runner processes re-run this script).
  let model: ModelSetup | null = null;
  if (!runner) {
    mkdirSync(outDir, { recursive: true });
    if (!options.storeUrl)
      removeOld(outDir, ['arclight.sqlite', 'arclight.sqlite-wal', 'arclight.sqlite-shm']);
    model = await setupModel(env, options.offline, options.realModel);
    // Runner processes inherit the environment: tell them whether to ask the server for token ids.
    if (strategy === 'client-server') {
      process.env.ARCLIGHT_REQUEST_TOKEN_IDS = model.requestTokenIds ? '1' : '0';
    }
  }
  const seedPrompt = baselinePrompt();
  const progress = new ApoProgress(out, seedPrompt.template);
  const log = runner ? null : fileLogger(join(outDir, 'apo.log'));
  const apo = new APO<RoomSelectionTask>({
    client: model?.apoClient,
    gradientModel: model?.gradientModel,
    applyEditModel: model?.applyEditModel,
    beamRounds: options.beamRounds ?? 3,
    beamWidth: options.beamWidth ?? 2,
    branchFactor: options.branchFactor ?? 2,
    gradientBatchSize: options.gradientBatchSize ?? 4,
    valBatchSize: options.valBatchSize ?? 10,
    seed: options.seed ?? 7,
    pollInterval: 0.5,
    onProgress: progress.onEvent,
    logger: log,
  });

  let uninstrument: Uninstrument | undefined;
  const requestTokenIds = model?.requestTokenIds ?? env.ARCLIGHT_REQUEST_TOKEN_IDS !== '0';
  const store: LightningStore | undefined = runner
    ? undefined
    : options.storeUrl
      ? new LightningStoreClient(options.storeUrl)
      : new SqliteLightningStore({ path: storePath });
  const trainer = new Trainer<RoomSelectionTask>({
    nRunners,
    strategy,
    port: 0,
    store,
    algorithm: apo,
    adapter: new TraceToMessages(),
    // The prompt (optimised) and the model (passed along unchanged) reach the agent as resources.
    initialResources: model ? { prompt_template: seedPrompt, main_llm: model.llm } : {},
    // One tracer per process; the openai SDK is instrumented to write its LLM-call spans through it.
    tracer: (tracerStore: LightningStore) => {
      const tracer = new LightningTracer({ store: tracerStore });
      uninstrument?.();
      uninstrument = instrumentOpenAI(OpenAI, {
        tracerProvider: tracer.tracerProvider,
        requestTokenIds,
      });
      return tracer;
    },
    // An idle runner looks for work often: APO enqueues one batch at a time.
    runner: { pollInterval: strategy === 'in-process' ? 0.05 : 0.2, intervalJitter: 0.02 },
    handleSignals: options.handleSignals ?? true,
  });

  const started = Date.now();
  if (model) {
    progress.line(model.description);
    progress.line(
      `Store: ${storePath} · ${nRunners} runners (${strategy}) · ${train.length} training / ` +
        `${val.length} validation tasks`,
    );
    progress.line(`Seed prompt: ${seedPrompt.template}`);
  }
  try {
    await trainer.fit(roomSelector, { trainDataset: train, valDataset: val });
  } finally {
    uninstrument?.();
    await log?.close();
    await model?.close();
  }
  // Only the main process gets here.
  const mainStore = store!;
  try {
    return await finish(options, {
      model: model!,
      apo,
      progress,
      store: mainStore,
      outDir,
      storePath,
      strategy,
      nRunners,
      seconds: (Date.now() - started) / 1000,
    });
  } finally {
    await mainStore.close();
  }
}

interface FinishContext {
  model: ModelSetup;
  apo: APO<RoomSelectionTask>;
  progress: ApoProgress;
  store: LightningStore;
  outDir: string;
  storePath: string;
  strategy: string;
  nRunners: number;
  seconds: number;
}

async function finish(options: DemoOptions, ctx: FinishContext): Promise<DemoSummary> {
  const { apo, progress, store, outDir, model } = ctx;
  const best = apo.getBestPrompt();
  const bestPromptPath = join(outDir, 'best-prompt.txt');
  writeFileSync(bestPromptPath, `${best.template}\n`);

  progress.line('');
  progress.line('Validation reward per round (the round leader on the whole validation set):');
  for (const line of progress.chart()) progress.line(line);
  progress.line(
    `Best prompt ${apo.bestVersion} (validation reward ${apo.bestScore.toFixed(3)}, seed ` +
      `${apo.seedScore?.toFixed(3) ?? '-'}):`,
  );
  for (const line of best.template.split('\n')) progress.line(`  | ${line}`);

  const format = options.format ?? (model.requestTokenIds ? 'verl-parquet' : 'trl-sft');
  const extension = format.endsWith('parquet') ? 'parquet' : 'jsonl';
  const targets = [
    { format: 'triplets', out: join(outDir, 'triplets.jsonl') },
    { format, out: join(outDir, `${format}.${extension}`) },
  ];
  const exports: ExportSummary[] = [];
  for (const target of targets) exports.push(await exportFromStore(store, target));

  const summaryPath = join(outDir, 'summary.json');
  const summary: DemoSummary = {
    simulated: model.simulated,
    model_kind: model.kind,
    model: model.llm.model,
    strategy: ctx.strategy,
    runners: ctx.nRunners,
    rollouts: progress.rollouts,
    seed: { version: 'v0', score: apo.seedScore },
    curve: progress.curve.map(({ round, version, score }) => ({ round, version, score })),
    best: { version: apo.bestVersion ?? 'v0', score: apo.bestScore, template: best.template },
    files: {
      store: ctx.storePath,
      bestPrompt: bestPromptPath,
      log: join(outDir, 'apo.log'),
      summary: summaryPath,
    },
    exports,
  };
  writeFileSync(summaryPath, `${JSON.stringify(summary, null, 2)}\n`);

  progress.line('');
  progress.line(`Done in ${ctx.seconds.toFixed(1)} s: ${progress.rollouts} rollouts.`);
  for (const e of exports) {
    progress.line(
      `Exported ${e.format}: ${e.rows} rows from ${e.rollouts_exported}/${e.rollouts} rollouts → ${e.out}`,
    );
  }
  progress.line(
    options.storeUrl
      ? `Store (server): ${ctx.storePath}  — export again: npx arclight export --store ${ctx.storePath} --format triplets --out triplets.jsonl`
      : `Store (SQLite): ${ctx.storePath}`,
  );
  progress.line(`Best prompt: ${bestPromptPath}`);
  progress.line(`APO log: ${summary.files.log}`);
  progress.line(`Summary: ${summaryPath}`);
  if (model.simulated) {
    progress.line(
      'Note: this run used the SIMULATED offline model; --real-model runs a real 135M model offline, and ' +
        'OPENAI_BASE_URL/OPENAI_API_KEY use any OpenAI-compatible one.',
    );
  } else if (model.kind === 'real-offline') {
    progress.line(
      'Note: this run used a REAL 135M-parameter model on the CPU. Its low rewards are what such a small model ' +
        'does on this task; the traces, token ids and exports are those of a real engine.',
    );
  }
  // Last: how to look at this run in the dashboard (served by the store at its root).
  progress.line(
    `See this run in the dashboard: npx arclight store --db ${ctx.storePath}  then open http://127.0.0.1:4747/`,
  );
  return summary;
}
