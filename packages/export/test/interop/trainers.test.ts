import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SqliteLightningStore } from '@arclight/store';
import { FixtureTokenizer } from '@arclight/test-fixtures';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ExportSummary,
  exportFromStore,
  type FormatName,
  type VerlRow,
  writeExport,
} from '../../src/index.js';
import { recordOf } from '../support/fixtures.js';
import { validateWithPython } from '../support/python.js';
import { SCENARIO } from '../support/scenario.js';

/**
 * Every trainable format, loaded by the real consumer the README names (TRL 1.16 trainers, verl 0.9 datasets +
 * compute_advantage + policy loss, openpipe-art 0.5.18's loader + tokenize_trajectory_groups), one training step
 * each with a tiny random model on CPU — on synthetic traces, and on the stores the examples write when run the
 * documented way against the fixture LLM with its byte-level tokenizer (ids < 272, so a tiny model's embedding
 * holds them). The Python environment is built by `scripts/python-env.sh trainers` (cached outside the clone,
 * keyed by scripts/python/trainers.txt).
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
] as const satisfies readonly FormatName[];
type TrainFormat = (typeof FORMATS)[number];

/**
 * The examples whose stores are exported, and the formats each is trained with. research-agent (instrumentation-
 * openai with token ids + logprobs, 5 or 3 calls per rollout, two samples per question) feeds every format; the
 * others add their instrumentations' traces: calc-agent (Vercel AI SDK, tool call + answer), agents-handoff
 * (OpenAI Agents SDK, triage → specialist), sql-agent (LangGraph nodes, each its own conversation).
 */
const EXAMPLES: Record<string, readonly TrainFormat[]> = {
  'research-agent': FORMATS,
  'calc-agent': ['trl-sft', 'trl-sft-tokens', 'verl-trajectory-parquet'],
  'agents-handoff': ['trl-sft', 'trl-kto', 'trl-prompt', 'verl-trajectory-jsonl', 'verl-sft'],
  'sql-agent': ['trl-kto', 'verl-parquet', 'verl-rlhf'],
};

/** OpenAI's formats have no trainer to run here: they pass OpenAI's documented fine-tuning file rules instead. */
const OPENAI_FORMATS = ['openai-sft', 'openai-dpo'] as const satisfies readonly FormatName[];

/**
 * OpenAI formats exported per example (checked against OpenAI's rules); agents-handoff asks each question once,
 * so it has no preference pairs for openai-dpo.
 */
const OPENAI_EXPORTS: Record<string, readonly FormatName[]> = {
  'research-agent': OPENAI_FORMATS,
  'agents-handoff': ['openai-sft'],
};

const extension = (format: string) =>
  format.endsWith('parquet') || format === 'verl-sft' || format === 'verl-rlhf'
    ? 'parquet'
    : 'jsonl';

interface ConsumerResult {
  ok: boolean;
  error: string | null;
  detail: Record<string, unknown> | null;
}

const results: Record<string, ConsumerResult> = {};
const summaries: Record<string, ExportSummary> = {};
const files: Record<string, string> = {};
const bytes = new FixtureTokenizer({ vocabulary: 'bytes' });

/** Runs an example's built entry point with the fixture LLM's byte-level tokenizer; returns its store file. */
async function runExample(name: string, dir: string): Promise<string> {
  const db = join(dir, `${name}.sqlite`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ARCLIGHT_FIXTURE_TOKENIZER: 'bytes',
    ARCLIGHT_DB: db,
  };
  // Offline: the examples use a real endpoint only when these are set. Run as a user does, not as a test: the
  // OpenAI Agents SDK turns its tracing off under NODE_ENV=test (vitest sets it), and agents-handoff records nothing.
  for (const key of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_MODEL', 'NODE_ENV'])
    delete env[key];
  for (const key of Object.keys(env)) if (key.startsWith('VITEST')) delete env[key];
  await run(process.execPath, [join(ROOT, 'examples', name, 'dist/main.js')], {
    cwd: join(ROOT, 'examples', name),
    env,
    timeout: 120_000,
  });
  return db;
}

beforeAll(async () => {
  const { stdout } = await run('bash', [join(ROOT, 'scripts/python-env.sh'), 'trainers'], {
    timeout: 45 * 60_000,
    maxBuffer: 1 << 24,
  });
  const python = join(stdout.trim().split('\n').at(-1)!, 'bin/python');
  const dir = mkdtempSync(join(tmpdir(), 'arclight-trainers-'));
  const outputs = [];
  for (const format of FORMATS) {
    const path = join(dir, `${format}.${extension(format)}`);
    summaries[format] = await writeExport(SCENARIO.map(recordOf), { format, out: path });
    outputs.push({ name: format, format, path });
  }
  for (const [example, formats] of Object.entries(EXAMPLES)) {
    const store = new SqliteLightningStore({ path: await runExample(example, dir) });
    try {
      const extra: FormatName[] = [...(OPENAI_EXPORTS[example] ?? [])];
      for (const format of new Set<FormatName>([...formats, 'verl-trajectory-jsonl', ...extra])) {
        const name = `${example}/${format}`;
        const path = join(dir, `${example}-${format}.${extension(format)}`);
        summaries[name] = await exportFromStore(store, { format, out: path });
        files[name] = path;
        if ((formats as readonly string[]).includes(format)) outputs.push({ name, format, path });
      }
    } finally {
      await store.close();
    }
  }
  const manifest = join(dir, 'manifest.json');
  const resultFile = join(dir, 'result.json');
  writeFileSync(manifest, JSON.stringify({ outputs, verl_rows: VERL_ROWS }));
  await run(python, [SCRIPT, manifest, resultFile], {
    timeout: 15 * 60_000,
    maxBuffer: 1 << 26,
    env: { ...process.env, HF_HOME: join(dir, 'hf'), HF_DATASETS_CACHE: join(dir, 'hf-datasets') },
  });
  Object.assign(results, JSON.parse(readFileSync(resultFile, 'utf8')));
}, 60 * 60_000);

const trained = (name: string) => {
  const result = results[name];
  expect(result, `no result for ${name}`).toBeDefined();
  expect(result!.error).toBeNull();
  expect(result!.ok).toBe(true);
  return result!.detail!;
};

const jsonlRows = <T>(name: string): T[] =>
  readFileSync(files[name]!, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);

/** Runs of equal mask values: [mask, ids]. */
function maskRuns(ids: readonly number[], mask: readonly number[]): [number, number[]][] {
  const runs: [number, number[]][] = [];
  ids.forEach((id, i) => {
    const last = runs.at(-1);
    if (last && last[0] === mask[i]) last[1].push(id);
    else runs.push([mask[i]!, [id]]);
  });
  return runs;
}

describe('every trainable format, loaded and trained by the real consumer (synthetic traces)', () => {
  it.each(FORMATS)('%s', (format) => {
    trained(format);
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

describe('the examples’ stores, exported and trained by the real consumers', () => {
  it.each(
    Object.entries(EXAMPLES).flatMap(([example, formats]) => formats.map((f) => `${example}/${f}`)),
  )('%s', (name) => {
    const detail = trained(name);
    expect(summaries[name]!.rows).toBeGreaterThan(0);
    if (detail.rows !== undefined) expect(detail.rows).toBe(summaries[name]!.rows);
  });

  it('research-agent: the trajectory export merges each rollout’s 5 or 3 calls into one row, no prefix break', () => {
    for (const format of ['verl-trajectory-jsonl', 'verl-trajectory-parquet', 'trl-sft-tokens']) {
      expect(summaries[`research-agent/${format}`]!.merge).toEqual({
        calls: 32,
        merged_calls: 24,
        rows: 8,
        prefix_breaks: 0,
        breaks_by_reason: {},
        first_breaks: [],
      });
    }
    expect(summaries['research-agent/verl-parquet']!.rows).toBe(32);
    const rows = jsonlRows<VerlRow>('research-agent/verl-trajectory-jsonl');
    expect(rows.map((r) => r.turn_indices.length).sort()).toEqual([3, 3, 3, 3, 5, 5, 5, 5]);
  });

  it('research-agent: trained tokens are the model’s replies, masked tokens the tool results between them', () => {
    for (const row of jsonlRows<VerlRow>('research-agent/verl-trajectory-jsonl')) {
      const runs = maskRuns(row.response_ids, row.response_mask);
      const replies = runs.filter(([m]) => m === 1).map(([, ids]) => bytes.decode(ids));
      const observations = runs.filter(([m]) => m === 0).map(([, ids]) => bytes.decode(ids));
      // One trained run per call, each a whole reply ending in <|im_end|>; one observation between two calls.
      expect(replies).toHaveLength(row.turn_indices.length);
      for (const reply of replies) expect(reply).toMatch(/<\|im_end\|>$/);
      expect(replies.slice(0, -1).every((r) => r.includes('<tool_call>'))).toBe(true);
      expect(replies.at(-1)).toMatch(/ANSWER: /);
      expect(observations).toHaveLength(row.turn_indices.length - 1);
      for (const observation of observations) {
        expect(observation).toMatch(
          /^\n<\|im_start\|>user\n<tool_response>\n[\s\S]*\n<\/tool_response><\|im_end\|>\n<\|im_start\|>assistant\n$/,
        );
      }
      // Observation tokens carry logprob 0.0 placeholders; sampled tokens their engine logprobs.
      row.response_mask.forEach((m, i) => {
        if (m === 0) expect(row.rollout_log_probs![i]).toBe(0);
      });
    }
  });

  it('research-agent: TRL and verl train the merged rows with the observations out of the loss', () => {
    const tokens = trained('research-agent/trl-sft-tokens');
    expect(tokens.zero_mask_tokens).toBeGreaterThan(0);
    expect(tokens.labels_ignored).toBe(tokens.zero_mask_tokens);
    const verl = trained('research-agent/verl-trajectory-parquet');
    expect(verl.masked_observation_tokens).toBeGreaterThan(0);
    expect(verl.trained_tokens).toBeGreaterThan(0);
  });

  it('research-agent: ART trains every reply with its logprobs; DPO pairs the two samples of each question', () => {
    const art = trained('research-agent/art');
    expect(summaries['research-agent/art']!.skipped_triplets).toEqual({});
    expect(art.trajectories).toBe(8);
    expect(art.trained_tokens).toBeGreaterThan(0);
    expect(art.logprobs_on_all_trained_tokens).toBe(true);
    expect(summaries['research-agent/trl-dpo']!.rows).toBe(4);
    expect(trained('research-agent/trl-dpo').rows_with_tools).toBe(4);
  });

  it("research-agent and agents-handoff: the OpenAI formats pass OpenAI's fine-tuning file rules", async () => {
    const names = Object.entries(OPENAI_EXPORTS).flatMap(([example, formats]) =>
      formats.map((format) => ({ format, name: `${example}/${format}` })),
    );
    const results = await validateWithPython(
      names.map(({ format, name }) => ({ format, name, path: files[name]! })),
    );
    for (const { name } of names) {
      expect(summaries[name]!.rows).toBeGreaterThan(0);
      expect(results[name], `${name}: ${results[name]?.error}`).toMatchObject({
        ok: true,
        rows: summaries[name]!.rows,
      });
    }
  }, 120_000);

  it('agents-handoff (Chat Completions model): every chat format carries the tools each call offered', () => {
    // Every call offers tools: triage its two transfer_to_* handoffs, a specialist its one tool.
    for (const format of ['trl-sft', 'trl-kto', 'trl-prompt', 'verl-sft']) {
      const name = `agents-handoff/${format}`;
      expect(trained(name).rows_with_tools, name).toBe(summaries[name]!.rows);
    }
    const names = (tools: { function: { name: string } }[]) =>
      tools.map((t) => t.function.name).sort();
    const offered = new Set(
      jsonlRows<{ tools?: { function: { name: string } }[] }>('agents-handoff/openai-sft').map(
        (row) => JSON.stringify(names(row.tools ?? [])),
      ),
    );
    expect([...offered].sort()).toEqual([
      '["calculator"]',
      '["lookup_invoice"]',
      '["transfer_to_billing_specialist","transfer_to_math_specialist"]',
    ]);
  });

  it('calc-agent and agents-handoff (other instrumentations) merge too; sql-agent breaks only between agents', () => {
    expect(summaries['calc-agent/verl-trajectory-jsonl']!.merge).toMatchObject({
      calls: 10,
      merged_calls: 5,
      rows: 5,
      prefix_breaks: 0,
    });
    // verl's MultiTurnSFTDataset loads every one of agents-handoff's rows, tools included.
    expect(trained('agents-handoff/verl-sft').rows).toBe(
      summaries['agents-handoff/verl-sft']!.rows,
    );
    const handoff = summaries['agents-handoff/verl-trajectory-jsonl']!.merge!;
    expect(handoff.merged_calls).toBeGreaterThan(0);
    expect(Object.keys(handoff.breaks_by_reason)).toEqual(
      handoff.prefix_breaks > 0 ? ['different_agent'] : [],
    );
    // LangGraph's write/check/rewrite nodes each build their own prompt: nothing to merge, and the report says why.
    const sql = summaries['sql-agent/verl-trajectory-jsonl']!.merge!;
    expect(sql.merged_calls).toBe(0);
    expect(sql.prefix_breaks).toBeGreaterThan(0);
    expect(sql.breaks_by_reason).toEqual({ different_agent: sql.prefix_breaks });
  });
});
