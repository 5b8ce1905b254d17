import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteLightningStore } from '@arclight/store';
import type { FixtureLlm } from '@arclight/test-fixtures';
import type { RunResult, ScratchApp } from '@arclight/test-fixtures/scratch';
import { expect } from 'vitest';

// Shared checks of the framework matrix (`matrix-*.test.ts`): each app records its runs with RolloutRecorder
// into arclight.sqlite; these read that store and the app's own `npx arclight export` output.

/** Every LLM-call span name the integrations write (the export's default match). */
export const LLM_CALL = /^openai\.(chat\.completion|responses\.create|completion)$/;

const LLM_PATHS = /\/(chat\/completions|responses|completions)$/;

export interface RunAppOptions {
  /** Load `@arclight/instrumentation-openai/register` with `--import` (every copy of `openai`). */
  register?: boolean;
  env?: Record<string, string>;
}

/** Runs the app's script against the fixture server; fails on a non-zero exit or an Arclight warning. */
export async function runApp(
  app: ScratchApp,
  llm: FixtureLlm,
  script: string,
  options: RunAppOptions = {},
): Promise<RunResult> {
  const args = options.register ? ['--import', '@arclight/instrumentation-openai/register'] : [];
  const run = await app.run(process.execPath, [...args, script], {
    env: {
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: 'unused',
      NODE_ENV: 'production',
      ...options.env,
    },
  });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).not.toContain('ARCLIGHT_');
  return run;
}

/** The number of model requests the fixture server answered. */
export function llmRequests(llm: FixtureLlm): number {
  return llm.requests.filter((r) => LLM_PATHS.test(r.path)).length;
}

export interface Expectations {
  rollouts: number;
  /** `tool.name` values that must appear. */
  tools: string[];
  /** LLM-call span names that must appear (e.g. both chat and responses). */
  llmCallNames?: string[];
}

interface StoredSpan {
  name: string;
  attributes: Record<string, unknown>;
}

/** Checks the store: finished rollouts, one LLM-call span per model request with token ids, tools. */
export async function checkStore(app: ScratchApp, llm: FixtureLlm, want: Expectations) {
  const store = new SqliteLightningStore({ path: join(app.dir, 'arclight.sqlite') });
  try {
    const rollouts = (await store.queryRollouts({})).items;
    expect(rollouts.map((r) => r.status)).toEqual(Array(want.rollouts).fill('succeeded'));
    const spans: StoredSpan[] = [];
    for (const rollout of rollouts) {
      spans.push(...((await store.querySpans(rollout.rollout_id)).items as StoredSpan[]));
    }
    const calls = spans.filter((s) => LLM_CALL.test(s.name));
    expect(calls.length).toBe(llmRequests(llm));
    for (const call of calls) {
      expect(
        (call.attributes.prompt_token_ids as number[] | undefined)?.length,
        call.name,
      ).toBeGreaterThan(0);
      expect(
        (call.attributes.response_token_ids as number[] | undefined)?.length,
        call.name,
      ).toBeGreaterThan(0);
    }
    const names = new Set(calls.map((c) => c.name));
    for (const name of want.llmCallNames ?? []) expect(names).toContain(name);
    const tools = new Set(spans.map((s) => s.attributes['tool.name']).filter(Boolean));
    for (const tool of want.tools) expect(tools).toContain(tool);
    return { calls: calls.length };
  } finally {
    await store.close();
  }
}

/** `npx arclight export` (the app's CLI): triplets with token ids, rewards on each rollout's last, verl Parquet. */
export async function checkExport(
  app: ScratchApp,
  want: {
    rows: number;
    rollouts: number;
    agents: (string | null)[];
    args?: string[];
    /** For the `npx arclight export` runs (e.g. a `PATH` with another Node first). */
    env?: Record<string, string>;
  },
) {
  const args = want.args ?? [];
  const triplets = await arclightExport(app, 'triplets', 'triplets.jsonl', args, want.env);
  expect(triplets.code, triplets.stdout + triplets.stderr).toBe(0);
  const rows = readFileSync(join(app.dir, 'triplets.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(rows).toHaveLength(want.rows);
  for (const row of rows) {
    expect(row.prompt.token_ids.length).toBeGreaterThan(0);
    expect(row.response.token_ids.length).toBeGreaterThan(0);
    expect(row.reward).toBe(1);
  }
  // The agent each LLM call was made by, where the adapter looks for it (`agentMatch`).
  expect(new Set(rows.map((r) => r.agent_name))).toEqual(new Set(want.agents));
  // The reward lands on the last triplet of each rollout, and only there.
  expect(rows.filter((r) => r.call_reward === 1)).toHaveLength(want.rollouts);

  const verl = await arclightExport(app, 'verl-parquet', 'data/verl.parquet', args, want.env);
  expect(verl.code, verl.stdout + verl.stderr).toBe(0);
  expect(Number(/wrote (\d+) rows?/.exec(verl.stdout)?.[1] ?? 'NaN'), verl.stdout).toBeGreaterThan(
    0,
  );
  const parquet = readFileSync(join(app.dir, 'data/verl.parquet'));
  expect(parquet.subarray(0, 4).toString()).toBe('PAR1');
  return rows;
}

/** The installed copies of a package (`npm ls --parseable`), e.g. two `openai` majors. */
export async function installedVersions(app: ScratchApp, name: string): Promise<string[]> {
  const ls = await app.run('npm', ['ls', '--all', '--json', name]);
  const versions = new Set<string>();
  const walk = (deps: Record<string, { version?: string; dependencies?: object }> = {}) => {
    for (const [dep, info] of Object.entries(deps)) {
      if (dep === name && info.version) versions.add(info.version.split('.')[0] as string);
      walk(info.dependencies as never);
    }
  };
  walk(JSON.parse(ls.stdout).dependencies);
  return [...versions].sort();
}

/** `npx arclight export --db arclight.sqlite --format <format> --out <out> …args` in the app. */
export function arclightExport(
  app: ScratchApp,
  format: string,
  out: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<RunResult> {
  return app.run(
    'npx',
    ['arclight', 'export', '--db', 'arclight.sqlite', '--format', format, '--out', out, ...args],
    { env },
  );
}
