// examples/real-model-sft: improve a real model (SmolLM2-135M-Instruct) on the CPU, offline, through Arclight's loop:
// rollouts traced with token ids → store → export → fine-tuning → new weights served and published → evaluation.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { instrumentOpenAI } from '@arclight/instrumentation-openai';
import { LightningTracer } from '@arclight/otel';
import { SqliteLightningStore } from '@arclight/store';
import { findRepoRoot } from '@arclight/test-fixtures';
import { Trainer } from '@arclight/trainer';
import OpenAI from 'openai';
import { weatherAgent } from './agent.js';
import { improvementLoop, type RoundResult } from './loop.js';
import { weatherTasks } from './tasks.js';

const USAGE = `Usage: npm start -w examples/real-model-sft -- [options]

Fine-tunes SmolLM2-135M-Instruct on the CPU to call a tool, from its own traced rollouts, and reports the held-out
reward before and after each round (reward-curve.png, rounds.json).

  --out DIR        output folder (default ./real-model-sft-run)
  --rounds N       fine-tuning rounds (default 2)
  --samples N      teacher samples per training task and round (default 2)
`;

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    rounds: { type: 'string' },
    samples: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const log = (line: string) => process.stdout.write(`${line}\n`);
const root = findRepoRoot();
if (!root) throw new Error('run this example from the Arclight repository');
const stage = (name: string, started: number) =>
  log(`[${name}: ${((Date.now() - started) / 1000).toFixed(0)} s]`);

let t = Date.now();
// The engine, the model and llama.cpp's converter (fetched once into ~/.cache/arclight/real-model) and the
// Python environment with torch, transformers and PEFT (built once into ~/.cache/arclight/venvs).
const files = JSON.parse(
  execFileSync('bash', [join(root, 'scripts', 'real-model.sh'), '--llama-cpp'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
    .trim()
    .split('\n')
    .pop()!,
) as { engine_dir: string; model_path: string; llama_cpp_dir: string };
execFileSync('bash', [join(root, 'scripts', 'python-env.sh'), 'real-model'], { stdio: 'inherit' });
const python = join(root, '.venvs', 'real-model', 'bin', 'python');
if (!existsSync(python)) throw new Error(`no Python environment at ${python}`);
stage('setup', t);

const outDir = resolve(values.out ?? 'real-model-sft-run');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const { train, heldOut } = weatherTasks();
const results: RoundResult[] = [];
const store = new SqliteLightningStore({ path: join(outDir, 'arclight.sqlite') });
let uninstrument: (() => void) | undefined;
const trainer = new Trainer({
  nRunners: 1,
  store,
  algorithm: improvementLoop(
    {
      files,
      llamaCpp: files.llama_cpp_dir,
      outDir,
      python,
      rounds: Number(values.rounds ?? 2),
      samples: Number(values.samples ?? 2),
      train,
      heldOut,
      log,
    },
    results,
  ),
  tracer: (tracerStore) => {
    const tracer = new LightningTracer({ store: tracerStore });
    uninstrument = instrumentOpenAI(OpenAI, {
      tracerProvider: tracer.tracerProvider,
      requestTokenIds: true,
      requestLogprobs: true,
    });
    return tracer;
  },
  runner: { pollInterval: 0.05 },
});
t = Date.now();
try {
  await trainer.fit(weatherAgent, { trainDataset: [], valDataset: [] });
} finally {
  uninstrument?.();
  await store.close();
}
stage('loop', t);

writeFileSync(join(outDir, 'rounds.json'), `${JSON.stringify(results, null, 2)}\n`);
execFileSync(python, [
  join(import.meta.dirname, '..', 'python', 'plot.py'),
  join(outDir, 'rounds.json'),
  join(outDir, 'reward-curve.png'),
]);
log('');
log('round  held-out reward  correct calls  teacher reward  rows  collect s  train s');
for (const r of results) {
  log(
    `${String(r.round).padStart(5)}  ${r.held_out_reward.toFixed(3).padStart(15)}  ` +
      `${`${r.held_out_calls}/${heldOut.length}`.padStart(13)}  ${(r.teacher_reward?.toFixed(3) ?? '-').padStart(14)}  ` +
      `${String(r.sft_rows ?? '-').padStart(4)}  ${(r.seconds.collect?.toFixed(0) ?? '-').padStart(9)}  ` +
      `${(r.seconds.train?.toFixed(0) ?? '-').padStart(7)}`,
  );
}
log(`Reward curve: ${join(outDir, 'reward-curve.png')}`);
