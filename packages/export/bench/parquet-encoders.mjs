// Parquet encoders side by side on the same verl rows, sink only (no adapter, no prepare): `npm run build`, then
// `node bench/parquet-encoders.mjs` in packages/export. ARCLIGHT_BENCH_ROWS rows (default 200,000) cycled from a
// pool of 512 verl transition rows shaped like export-bench's (prompts of 170–500 ids that extend each other
// within a rollout, 49 response ids with logprobs) but with ids spread over a 150k vocabulary, written by
// - hyparquet-writer (the nested writer, which wrote every Parquet format before: Dremel walk + dictionary),
// - this package's columnar encoder with ZSTD (the default) and with Snappy (its fallback before Node 22.15).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VERL_COLUMNS } from '../dist/formats/verl.js';
import { ColumnarParquetSink } from '../dist/sinks/columnar-parquet-sink.js';
import { NestedParquetSink } from '../dist/sinks/nested-parquet-sink.js';

const ROWS = Number(process.env.ARCLIGHT_BENCH_ROWS ?? 200_000);
/** Pseudo-random ids over a 150k vocabulary (real token ids do not repeat in short cycles). */
const ids = (n, seed) =>
  Array.from({ length: n }, (_, i) => (Math.imul(seed * 7919 + i, 2654435761) >>> 0) % 150_000);
/** 128 rollouts of 4 calls: each prompt extends the previous one by its reply and an observation. */
const pool = [];
for (let r = 0; r < 128; r++) {
  let prompt = ids(170, r);
  for (let turn = 0; turn < 4; turn++) {
    const response = ids(49, r * 4 + turn + 1_000);
    pool.push({
      uid: `task-${r >> 2}`,
      data_id: `task-${r >> 2}`,
      rollout_id: `ro-${r.toString(16).padStart(12, '0')}`,
      attempt_id: `at-${r}`,
      mode: 'train',
      level: 'transition',
      turn_index: turn,
      turn_indices: [turn],
      agent_name: 'solver',
      prompt_ids: prompt,
      response_ids: response,
      response_mask: new Array(49).fill(1),
      rollout_log_probs: Array.from({ length: 49 }, (_, k) => -((k * 37 + r) % 100) / 40),
      reward: (r % 3) / 2,
    });
    prompt = [...prompt, ...response, ...ids(60, r * 4 + turn + 2_000)];
  }
}

const encoders = {
  'hyparquet-writer': (out) => new NestedParquetSink(out, VERL_COLUMNS, 1000),
  'columnar, ZSTD': (out) => new ColumnarParquetSink(out, VERL_COLUMNS, { rowGroupSize: 1000 }),
  'columnar, Snappy': (out) =>
    new ColumnarParquetSink(out, VERL_COLUMNS, { rowGroupSize: 1000, codec: 'SNAPPY' }),
};

const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
const dir = mkdtempSync(join(tmpdir(), 'arclight-parquet-encoders-'));
console.log(`parquet encoders: node ${process.version}, ${fmt(ROWS)} verl rows`);
console.log('| encoder | MB | seconds | CPU s | rows/s |');
console.log('|---|---:|---:|---:|---:|');
for (const [name, open] of Object.entries(encoders)) {
  const out = join(dir, 'rows.parquet');
  const start = performance.now();
  const cpu = process.cpuUsage();
  const sink = open(out);
  for (let i = 0; i < ROWS; i++) await sink.write(pool[i % pool.length]);
  await sink.close();
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  console.log(
    `| ${name} | ${fmt(statSync(out).size / 1e6, 1)} | ${fmt(seconds, 1)} | ${fmt((used.user + used.system) / 1e6, 1)} | ${fmt(ROWS / seconds)} |`,
  );
  rmSync(out);
}
rmSync(dir, { recursive: true, force: true });
