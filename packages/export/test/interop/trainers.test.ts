import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ExportSummary, writeExport } from '../../src/index.js';
import { recordOf } from '../support/fixtures.js';
import { SCENARIO } from '../support/scenario.js';

/**
 * Every trainable format, loaded by the real consumer the README names (TRL 1.16 trainers, verl 0.9 datasets +
 * compute_advantage + policy loss, openpipe-art 0.5.18's loader + tokenize_trajectory_groups), one training step
 * each with a tiny random model on CPU. The Python environment is built by `scripts/python-env.sh trainers`
 * (cached outside the clone, keyed by scripts/python/trainers.txt).
 */
const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./train_exports.py', import.meta.url));
const VERL_ROWS = fileURLToPath(new URL('../../python/', import.meta.url));

const FORMATS = [
  'trl-sft',
  'trl-sft-tokens',
  'trl-dpo',
  'trl-kto',
  'trl-prompt',
  'art',
  'verl-jsonl',
  'verl-parquet',
  'verl-trajectory-jsonl',
  'verl-trajectory-parquet',
  'verl-sft',
  'verl-rlhf',
] as const;

interface ConsumerResult {
  ok: boolean;
  error: string | null;
  detail: Record<string, unknown> | null;
}

let python = '';
const results: Record<string, ConsumerResult> = {};
const summaries: Record<string, ExportSummary> = {};

beforeAll(async () => {
  const { stdout } = await run('bash', [join(ROOT, 'scripts/python-env.sh'), 'trainers'], {
    timeout: 45 * 60_000,
    maxBuffer: 1 << 24,
  });
  python = join(stdout.trim().split('\n').at(-1)!, 'bin/python');
  const dir = mkdtempSync(join(tmpdir(), 'arclight-trainers-'));
  const outputs = [];
  for (const format of FORMATS) {
    const path = join(
      dir,
      `${format}.${format.endsWith('parquet') || format === 'verl-sft' || format === 'verl-rlhf' ? 'parquet' : 'jsonl'}`,
    );
    summaries[format] = await writeExport(SCENARIO.map(recordOf), { format, out: path });
    outputs.push({ format, path });
  }
  const manifest = join(dir, 'manifest.json');
  const resultFile = join(dir, 'result.json');
  writeFileSync(manifest, JSON.stringify({ outputs, verl_rows: VERL_ROWS }));
  await run(python, [SCRIPT, manifest, resultFile], {
    timeout: 10 * 60_000,
    maxBuffer: 1 << 26,
    env: { ...process.env, HF_HOME: join(dir, 'hf'), HF_DATASETS_CACHE: join(dir, 'hf-datasets') },
  });
  Object.assign(results, JSON.parse(readFileSync(resultFile, 'utf8')));
}, 60 * 60_000);

describe('every trainable format, loaded and trained by the real consumer', () => {
  it.each(FORMATS)('%s', (format) => {
    const result = results[format];
    expect(result, `no result for ${format}`).toBeDefined();
    expect(result!.error).toBeNull();
    expect(result!.ok).toBe(true);
  });

  it('chat formats carry the tool definitions the model saw', () => {
    expect(results['trl-sft']!.detail!.rows_with_tools).toBeGreaterThan(0);
    expect(results['trl-dpo']!.detail!.rows_with_tools).toBeGreaterThan(0);
    expect(results['verl-sft']!.detail!.rows_with_tools).toBeGreaterThan(0);
  });

  it('ART trains the engine tokens with their logprobs', () => {
    const art = results.art!.detail!;
    expect(art.items).toBeGreaterThan(0);
    expect(art.trained_tokens).toBeGreaterThan(0);
    expect(art.logprobs_on_all_trained_tokens).toBe(true);
  });

  it('trajectory rows mask observation tokens', () => {
    expect(results['verl-trajectory-parquet']!.detail!.masked_observation_tokens).toBeGreaterThan(
      0,
    );
    expect(summaries['verl-trajectory-parquet']!.rows).toBeLessThan(
      summaries['verl-parquet']!.rows,
    );
  });
});
