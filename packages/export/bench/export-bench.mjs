// Export throughput, `npm run bench` in packages/export. Three figures:
// 1. adapter: synthetic agent spans (10 per rollout, 4 LLM calls) → TracerTraceToTriplet, spans/s;
// 2. writers: 1M spans' worth of records (ARCLIGHT_BENCH_SPANS, default 1,000,000 → 100,000 rollouts) in
//    memory, made by cycling a pool of adapted rollouts under fresh rollout/task ids and written in every format
//    (ARCLIGHT_BENCH_FORMATS picks some): the rows/s of @arclight/export itself (ARCLIGHT_BENCH_KEEP=<dir> keeps
//    the files, e.g. to check that a speed-up left every byte of the output unchanged;
//    ARCLIGHT_BENCH_REPEAT=<n> writes each format n times and prints the fastest run, for a noisy machine);
// 3. end to end: exportFromStore from a temp SQLite store of ARCLIGHT_BENCH_STORE_SPANS spans (default
//    100,000): paginated reads + adapter + writer, in ARCLIGHT_BENCH_STORE_FORMATS (default verl-parquet,
//    verl-jsonl, trl-dpo); then the first of those formats again through a server (@arclight/server over the
//    same file in a child process, read with @arclight/client), with the default read-ahead and with none.
// CPU s (user + system of the process, thread pool included) next to wall seconds: on a shared machine the
// wall figures are noisy, the ratio of a format's CPU to its wall time says how much of a core it had.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TracerTraceToTriplet } from '@arclight/adapter';
import { LightningStoreClient } from '@arclight/client';
import { createSpan, defaultRolloutConfig } from '@arclight/core';
import { SqliteLightningStore } from '@arclight/store';
import { exportFromStore, FORMAT_NAMES, writeExport } from '../dist/index.js';

const SPANS = Number(process.env.ARCLIGHT_BENCH_SPANS ?? 1_000_000);
const STORE_SPANS = Number(process.env.ARCLIGHT_BENCH_STORE_SPANS ?? 100_000);
const FORMATS = process.env.ARCLIGHT_BENCH_FORMATS?.split(',') ?? FORMAT_NAMES;
const STORE_FORMATS = process.env.ARCLIGHT_BENCH_STORE_FORMATS?.split(',') ?? [
  'verl-parquet',
  'verl-jsonl',
  'trl-dpo',
];
const CALLS = 4; // spans per rollout: root + CALLS × (agent step + LLM call) + reward = 10
const SPANS_PER_ROLLOUT = 2 + 2 * CALLS;
const ROLLOUTS_PER_TASK = 4;

const text = (n, seed) => Array.from({ length: n }, (_, i) => 100 + ((seed * 31 + i * 7) % 800));

/** One rollout's spans: a tool-using agent whose prompts grow by prompt + reply + observation each call. */
function rolloutSpans(index) {
  const rollout_id = `ro-${index.toString(16).padStart(12, '0')}`;
  const attempt_id = `at-${index.toString(16).padStart(8, '0')}`;
  const base = { rollout_id, attempt_id, trace_id: '0af7651916cd43dd8448eb211c80319c' };
  const root = createSpan({
    ...base,
    name: 'agent.run',
    span_id: 'a000000000000001',
    start_time: 1,
    end_time: 99,
    attributes: { 'agent.name': 'solver' },
  });
  const spans = [root];
  let prompt = [1, ...text(120, index % 997), 9, 2, ...text(40, index), 9, 3];
  const messages = [
    ['system', 'You are a SQL agent. Answer with a query.'],
    ['user', `Question ${Math.floor(index / ROLLOUTS_PER_TASK)}: how many rows?`],
  ];
  for (let c = 0; c < CALLS; c++) {
    const reply = [...text(48, index + c), 9];
    const attributes = {
      'gen_ai.response.id': `chatcmpl-${index}-${c}`,
      'gen_ai.request.model': 'bench-model',
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.content': `SELECT count(*) FROM t${c} WHERE k = ${index % 7};`,
      'gen_ai.completion.0.finish_reason': 'stop',
      prompt_token_ids: prompt,
      response_token_ids: reply,
      'logprobs.content': JSON.stringify(
        reply.map((id) => ({ token: `t${id}`, logprob: -0.25, bytes: null, top_logprobs: [] })),
      ),
    };
    messages.forEach(([role, content], j) => {
      attributes[`gen_ai.prompt.${j}.role`] = role;
      attributes[`gen_ai.prompt.${j}.content`] = content;
    });
    const step = createSpan({
      ...base,
      name: 'agent.step',
      span_id: `d00000000000000${c}`,
      parent_id: root.span_id,
      start_time: 2 + c * 20,
      end_time: 20 + c * 20,
      attributes: { 'agent.name': 'solver' },
    });
    spans.push(
      step,
      createSpan({
        ...base,
        name: 'openai.chat.completion',
        span_id: `b00000000000000${c}`,
        parent_id: step.span_id,
        start_time: 3 + c * 20,
        end_time: 10 + c * 20,
        attributes,
      }),
    );
    messages.push(
      ['assistant', `SELECT count(*) FROM t${c} WHERE k = ${index % 7};`],
      ['user', `Result: ${c}`],
    );
    prompt = [...prompt, ...reply, 2, ...text(12, c), 9, 3];
  }
  spans.push(
    createSpan({
      ...base,
      name: 'agentlightning.annotation',
      span_id: 'c000000000000001',
      parent_id: root.span_id,
      start_time: 95,
      end_time: 95,
      attributes: {
        'agentlightning.reward.0.name': 'reward',
        'agentlightning.reward.0.value': (index % 3) / 2,
      },
    }),
  );
  return spans;
}

const rolloutOf = (index) => ({
  rollout_id: `ro-${index.toString(16).padStart(12, '0')}`,
  input: { question: Math.floor(index / ROLLOUTS_PER_TASK) },
  start_time: 1_750_000_000 + index,
  end_time: 1_750_000_100 + index,
  mode: 'train',
  resources_id: null,
  status: 'succeeded',
  config: defaultRolloutConfig(),
  metadata: { task_id: `task-${Math.floor(index / ROLLOUTS_PER_TASK)}` },
});

const REPEAT = Math.max(1, Number(process.env.ARCLIGHT_BENCH_REPEAT ?? 1));
const POOL = 512;
/** ARCLIGHT_BENCH_KEEP=<dir>: keep every writer output there (to compare outputs across builds). */
const KEEP = process.env.ARCLIGHT_BENCH_KEEP;
const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
const rollouts = Math.floor(SPANS / SPANS_PER_ROLLOUT);
const dir = mkdtempSync(join(tmpdir(), 'arclight-export-bench-'));
console.log(
  `export bench: node ${process.version}, ${CALLS} LLM calls and ${SPANS_PER_ROLLOUT} spans per rollout`,
);

// 1. Adapter throughput, on the pool.
let start = performance.now();
const adapter = new TracerTraceToTriplet();
const pool = Array.from({ length: POOL }, (_, i) => adapter.adapt(rolloutSpans(i)));
let seconds = (performance.now() - start) / 1000;
console.log(
  `adapter (span generation included): ${fmt((POOL * SPANS_PER_ROLLOUT) / seconds)} spans/s`,
);

/** Records made lazily (constant memory), in task order as exportFromStore delivers them. */
function* records() {
  for (let i = 0; i < rollouts; i++) {
    yield { rollout: rolloutOf(i), attempt_id: `at-${i}`, triplets: pool[i % POOL] };
  }
}

// 2. Writers, per format.
console.log(
  `writers: ${fmt(rollouts * SPANS_PER_ROLLOUT)} spans = ${fmt(rollouts)} rollouts, ${fmt(rollouts * CALLS)} triplets`,
);
console.log('| format | rows | MB | seconds | CPU s | rows/s | MB/s | rollouts/s |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const format of FORMATS) {
  const out = join(dir, `${format}.out`);
  let best = null;
  for (let run = 0; run < REPEAT; run++) {
    start = performance.now();
    const cpu = process.cpuUsage();
    const summary = await writeExport(records(), { format, out, maxOpenGroups: 1 });
    seconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    if (!best || seconds < best.seconds)
      best = { summary, seconds, cpu: (used.user + used.system) / 1e6 };
  }
  const mb = statSync(out).size / 1e6;
  const { summary } = best;
  console.log(
    `| ${format} | ${fmt(summary.rows)} | ${fmt(mb, 1)} | ${fmt(best.seconds, 1)} | ${fmt(best.cpu, 1)} | ${fmt(summary.rows / best.seconds)} | ${fmt(mb / best.seconds)} | ${fmt(rollouts / best.seconds)} |`,
  );
  if (KEEP) {
    mkdirSync(KEEP, { recursive: true });
    renameSync(out, join(KEEP, format));
  } else rmSync(out);
}

// 3. End to end from a SQLite store (exportFromStore: paginated queryRollouts + querySpans + adapter + writer).
const storeRollouts = Math.floor(STORE_SPANS / SPANS_PER_ROLLOUT);
if (storeRollouts > 0) {
  const store = new SqliteLightningStore({
    path: join(dir, 'bench.sqlite'),
    synchronous: 'normal',
  });
  for (let i = 0; i < storeRollouts; i++) {
    const started = await store.startRollout({
      input: { question: Math.floor(i / ROLLOUTS_PER_TASK) },
    });
    const ids = { rollout_id: started.rollout_id, attempt_id: started.attempt.attempt_id };
    await store.addManySpans(rolloutSpans(i).map((s) => ({ ...s, ...ids })));
    await store.updateAttempt(ids.rollout_id, ids.attempt_id, { status: 'succeeded' });
  }
  const storeExport = async (from, label, format, options = {}) => {
    start = performance.now();
    const cpu = process.cpuUsage();
    const summary = await exportFromStore(from, {
      format,
      out: join(dir, `store-${format}`),
      ...options,
    });
    seconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    console.log(
      `${label} → ${format}: ${fmt(summary.rows)} rows in ${fmt(seconds, 1)} s (CPU ${fmt((used.user + used.system) / 1e6, 1)} s) = ${fmt(summary.rows / seconds)} rows/s, ${fmt((storeRollouts * SPANS_PER_ROLLOUT) / seconds)} spans/s`,
    );
  };
  const label = `store (SQLite, ${fmt(storeRollouts * SPANS_PER_ROLLOUT)} spans)`;
  for (const format of STORE_FORMATS) await storeExport(store, label, format);
  await store.close();
  const server = await startServer(join(dir, 'bench.sqlite'));
  try {
    const client = new LightningStoreClient(server.url);
    for (const readAhead of [4, 0]) {
      await storeExport(
        client,
        `${label} through a server, readAhead ${readAhead}`,
        STORE_FORMATS[0],
        {
          readAhead,
        },
      );
    }
  } finally {
    server.child.kill();
  }
}

/** @arclight/server's bench child serving a SQLite file on a free loopback port. */
function startServer(path) {
  const script = new URL('../../server/bench/server-child.mjs', import.meta.url);
  const child = spawn(process.execPath, [script.pathname, 'sqlite', path], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`server child exited with ${code}`)));
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const ready = /READY (\S+)/.exec(output);
      if (ready) resolve({ url: ready[1], child });
    });
  });
}
rmSync(dir, { recursive: true, force: true });
console.log(`peak RSS of the whole run: ${fmt(process.resourceUsage().maxRSS / 1024)} MB`);
