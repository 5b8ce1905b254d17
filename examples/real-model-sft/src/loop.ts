// The improvement loop, as an Arclight algorithm: evaluate on held-out tasks, collect the teacher's rewarded
// rollouts, export them with @arclight/export, fine-tune on the CPU (python/train_sft.py), serve the new weights and
// publish them to the runners as the next `main_llm` resource — round after round.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { algo, waitForFinished } from '@arclight/algorithms';
import { findFinalReward, LLM } from '@arclight/core';
import { exportFromStore } from '@arclight/export';
import type { LightningStore } from '@arclight/store';
import {
  REAL_MODEL_NAME,
  type RealEngine,
  type RealModelFiles,
  startRealEngine,
} from '@arclight/test-fixtures/real-engine';
import type { WeatherRollout } from './agent.js';
import type { WeatherTask } from './tasks.js';

export interface LoopOptions {
  files: RealModelFiles;
  /** llama.cpp's converter folder (scripts/real-model.sh --llama-cpp). */
  llamaCpp: string;
  outDir: string;
  python: string;
  rounds: number;
  /** Teacher samples per training task and round. */
  samples: number;
  train: WeatherTask[];
  heldOut: WeatherTask[];
  log: (line: string) => void;
}

export interface RoundResult {
  round: number;
  gguf: string;
  held_out_reward: number;
  held_out_calls: number;
  teacher_reward?: number;
  sft_rows?: number;
  seconds: { evaluate: number; collect?: number; export?: number; train?: number };
}

const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
const since = (t: number) => (Date.now() - t) / 1000;

async function runBatch(
  store: LightningStore,
  batch: WeatherRollout[],
  mode: 'train' | 'val',
  signal: AbortSignal,
): Promise<number[]> {
  const rollouts = await store.enqueueManyRollouts(batch.map((input) => ({ input, mode })));
  const ids = rollouts.map((r) => r.rollout_id);
  await waitForFinished(store, ids, { signal, pollInterval: 1 });
  const rewards: number[] = [];
  for (const id of ids) {
    const spans = (await store.querySpans(id, { attempt_id: 'latest' })).items;
    rewards.push(findFinalReward(spans) ?? 0);
  }
  return rewards;
}

function runPython(python: string, args: string[], log: (line: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let last = '';
    child.stdout.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n').filter(Boolean)) {
        last = line;
        log(`    ${line}`);
      }
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(last) : reject(new Error(`${args[0]} exited ${code}:\n${err}`)),
    );
  });
}

export function improvementLoop(options: LoopOptions, results: RoundResult[]) {
  return algo<WeatherRollout>(async ({ store, signal }) => {
    let gguf = options.files.model_path;
    let engine: RealEngine | undefined;
    try {
      for (let round = 0; ; round++) {
        engine = await startRealEngine({ files: { ...options.files, model_path: gguf } });
        await store.addResources({
          main_llm: new LLM({ endpoint: engine.baseUrl, model: REAL_MODEL_NAME }),
        });
        let t = Date.now();
        const evalRewards = await runBatch(
          store,
          options.heldOut.map((task) => ({ ...task, teacher: false, temperature: 0, seed: 0 })),
          'val',
          signal,
        );
        const result: RoundResult = {
          round,
          gguf,
          held_out_reward: mean(evalRewards),
          held_out_calls: evalRewards.filter((r) => r === 1).length,
          seconds: { evaluate: since(t) },
        };
        results.push(result);
        options.log(
          `round ${round}: held-out reward ${result.held_out_reward.toFixed(3)} ` +
            `(${result.held_out_calls}/${evalRewards.length} correct tool calls) in ${result.seconds.evaluate.toFixed(0)} s`,
        );
        if (round === options.rounds) break;

        const roundStart = new Date();
        t = Date.now();
        const batch: WeatherRollout[] = [];
        for (let k = 0; k < options.samples; k++) {
          for (const task of options.train) {
            batch.push({ ...task, teacher: true, temperature: 0.5, seed: round * 1000 + k });
          }
        }
        const teacherRewards = await runBatch(store, batch, 'train', signal);
        result.teacher_reward = mean(teacherRewards);
        result.seconds.collect = since(t);
        options.log(
          `  teacher: ${teacherRewards.filter((r) => r === 1).length}/${batch.length} rewarded rollouts ` +
            `in ${result.seconds.collect.toFixed(0)} s`,
        );

        const dir = join(options.outDir, `round-${round + 1}`);
        mkdirSync(dir, { recursive: true });
        t = Date.now();
        // The rewarded teacher calls, as the engine's ids: prompt + everything the response held (the forced
        // opening of the call and the sampled rest), loss on the response only.
        const exported = await exportFromStore(store, {
          format: 'trl-sft-tokens',
          out: join(dir, 'sft-tokens.jsonl'),
          mode: 'train',
          since: roundStart,
          minReward: 1,
          allowEmpty: true,
        });
        const data = exported.out;
        result.sft_rows = exported.rows;
        result.seconds.export = since(t);
        options.log(`  exported ${exported.rows} trl-sft-tokens rows → ${data}`);
        if (exported.rows === 0) {
          options.log('  no rewarded teacher call this round: nothing to train on; stopping');
          break;
        }

        await engine.close();
        engine = undefined;
        t = Date.now();
        gguf = await runPython(
          options.python,
          [
            join(import.meta.dirname, '..', 'python', 'train_sft.py'),
            '--gguf',
            gguf,
            '--data',
            data,
            '--out',
            dir,
            '--llama-cpp',
            options.llamaCpp,
          ],
          options.log,
        );
        result.seconds.train = since(t);
        options.log(`  fine-tuned in ${result.seconds.train.toFixed(0)} s → ${gguf}`);
        writeFileSync(join(options.outDir, 'rounds.json'), `${JSON.stringify(results, null, 2)}\n`);
      }
    } finally {
      await engine?.close();
    }
  });
}
