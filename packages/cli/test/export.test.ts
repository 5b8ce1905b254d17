import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Attributes, createSpan, type Span } from '@arclight/core';
import { createLightningStoreServer } from '@arclight/server';
import { InMemoryLightningStore, type LightningStore, SqliteLightningStore } from '@arclight/store';
import { describe, expect, it } from 'vitest';
import { renderProgress } from '../src/commands/progress-bar.js';
import { BIN, cliEnv, runCli, runCliToEnd, tempDir } from './cli.js';

/**
 * A small store: tasks "q1" and "q2", two rollouts each (rewards 1 and 0), each rollout one agent span with two
 * chat-completion spans whose token ids are prefix-preserving, then a reward span; one rollout left running.
 */
function spansFor(rolloutId: string, attemptId: string, agent: string, variant: string): Span[] {
  const base = { rollout_id: rolloutId, attempt_id: attemptId };
  const root = createSpan({
    ...base,
    name: 'agent',
    start_time: 10,
    end_time: 100,
    attributes: { 'agent.name': agent },
  });
  const llm = (i: number, prompt: number[], reply: number[], messages: string[]) => {
    const attributes: Attributes = {
      'gen_ai.response.id': `${rolloutId}-${i}`,
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.content': `${variant} ${i}`,
      prompt_token_ids: prompt,
      response_token_ids: reply,
    };
    messages.forEach((content, j) => {
      attributes[`gen_ai.prompt.${j}.role`] = j % 2 === 0 ? 'user' : 'assistant';
      attributes[`gen_ai.prompt.${j}.content`] = content;
    });
    return createSpan({
      ...base,
      name: 'openai.chat.completion',
      trace_id: root.trace_id,
      parent_id: root.span_id,
      start_time: 20 + i * 10,
      end_time: 25 + i * 10,
      attributes,
    });
  };
  const reward = createSpan({
    ...base,
    name: 'agentlightning.annotation',
    trace_id: root.trace_id,
    parent_id: root.span_id,
    start_time: 90,
    attributes: {
      'agentlightning.reward.0.name': 'reward',
      'agentlightning.reward.0.value': variant === 'good' ? 1 : 0,
    },
  });
  return [
    root,
    llm(0, [1, 2], [3, 4], ['question']),
    llm(1, [1, 2, 3, 4, 5], [6], ['question', `${variant} 0`, 'more']),
    reward,
  ];
}

async function populate(store: LightningStore): Promise<void> {
  for (const [task, agent] of [
    ['q1', 'solver'],
    ['q2', 'helper'],
  ] as const) {
    for (const variant of ['good', 'bad']) {
      const rollout = await store.startRollout({ input: { task }, mode: 'train' });
      const attempt = rollout.attempt.attempt_id;
      await store.addManySpans(spansFor(rollout.rollout_id, attempt, agent, variant));
      await store.updateAttempt(rollout.rollout_id, attempt, { status: 'succeeded' });
    }
  }
  await store.startRollout({ input: { task: 'q3' }, mode: 'train' }); // still running
}

async function sqliteStoreFile(): Promise<{ dir: string; db: string }> {
  const dir = tempDir();
  const db = join(dir, 'arclight.sqlite');
  const store = new SqliteLightningStore({ path: db });
  await populate(store);
  await store.close();
  return { dir, db };
}

describe('arclight export: arguments', { timeout: 30_000 }, () => {
  it('is listed in --help and documents its flags', async () => {
    expect((await runCliToEnd(['--help'])).stdout).toMatch(/export \[options\]/);
    const help = await runCliToEnd(['export', '--help']);
    for (const flag of [
      '--store',
      '--db',
      '--format',
      '--out',
      '--mode',
      '--rollout-status',
      '--since',
    ]) {
      expect(help.stdout).toContain(flag);
    }
    expect(help.stdout).toContain('verl-parquet');
    expect(help.stdout).toContain('trl-sft');
  });

  const cases: Array<[string[], RegExp]> = [
    [
      ['export', '--format', 'trl-sft', '--out', 'x.jsonl'],
      /a source is required: --store <url> or --db <file>/,
    ],
    [
      ['export', '--db', 'a', '--store', 'http://x', '--format', 'trl-sft', '--out', 'x'],
      /not both/,
    ],
    [
      ['export', '--db', 'missing.sqlite', '--format', 'trl-sft', '--out', 'x'],
      /no SQLite store at .*missing\.sqlite/,
    ],
    [['export', '--db', 'a', '--format', 'csv', '--out', 'x'], /--format.*'csv' is invalid/],
    [['export', '--db', 'a', '--format', 'trl-sft'], /required option '--out <path>'/],
    [['export', '--db', 'a', '--out', 'x'], /required option '--format <name>'/],
    [
      ['export', '--db', 'a', '--format', 'art', '--out', 'x', '--since', 'yesterday'],
      /--since.*invalid/,
    ],
    [
      ['export', '--db', 'a', '--format', 'art', '--out', 'x', '--rollout-status', 'done'],
      /--rollout-status.*invalid/,
    ],
    [
      ['export', '--db', 'a', '--format', 'art', '--out', 'x', '--agent-match', '(('],
      /--agent-match.*invalid/,
    ],
  ];
  it.each(cases)('%j exits 1 with a one-line reason', async (args, message) => {
    const result = await runCliToEnd(args);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });
});

describe('arclight export --db', { timeout: 240_000 }, () => {
  it('writes verl Parquet and prints the summary; no progress bar when stderr is not a TTY', async () => {
    const { dir, db } = await sqliteStoreFile();
    const out = join(dir, 'data', 'verl.parquet');
    const result = await runCliToEnd([
      'export',
      '--db',
      db,
      '--format',
      'verl-parquet',
      '--out',
      out,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`arclight export: wrote 8 rows (verl-parquet) to ${out}`);
    expect(result.stdout).toContain('rollouts: 5 read, 4 exported');
    expect(result.stdout).toContain('triplets: 8');
    expect(result.stdout).toContain('skipped rollouts: unfinished 1');
    expect(readFileSync(out).subarray(0, 4).toString()).toBe('PAR1');
    expect(existsSync(`${out}.partial`)).toBe(false);
  });

  it('--json prints the summary object; filters and adapter options apply', async () => {
    const { dir, db } = await sqliteStoreFile();
    const run = async (args: string[], code = 0) => {
      const result = await runCliToEnd(['export', '--db', db, '--json', ...args]);
      expect(result.code, result.stderr).toBe(code);
      return JSON.parse(result.stdout) as {
        rows: number;
        skipped_rollouts: Record<string, number>;
      };
    };
    const out = join(dir, 'x.jsonl');
    expect((await run(['--format', 'verl-trajectory-jsonl', '--out', out])).rows).toBe(4);
    expect((await run(['--format', 'trl-dpo', '--out', out])).rows).toBe(2);
    expect(
      (await run(['--format', 'triplets', '--out', out, '--agent-match', '^helper$'])).rows,
    ).toBe(4);
    const val = await run(['--format', 'triplets', '--out', out, '--mode', 'val'], 2);
    expect(val).toMatchObject({ rows: 0, skipped_rollouts: { mode: 4, unfinished: 1 } });
    const running = await run([
      '--format',
      'triplets',
      '--out',
      out,
      '--rollout-status',
      'preparing,running,succeeded',
    ]);
    expect(running.skipped_rollouts).toEqual({ no_spans: 1 });
    const none = await run(
      ['--format', 'triplets', '--out', out, '--llm-call-match', 'anthropic'],
      2,
    );
    expect(none.skipped_rollouts).toMatchObject({ no_llm_calls: 4 });
    const later = await run(['--format', 'triplets', '--out', out, '--since', '2999-01-01'], 2);
    expect(later.skipped_rollouts.since).toBe(4);
  });

  it('0 rows: exit 2, per skip reason the count and the fix, no file; --allow-empty writes one', async () => {
    const { dir, db } = await sqliteStoreFile();
    const out = join(dir, 'empty.jsonl');
    const empty = await runCliToEnd([
      'export',
      '--db',
      db,
      '--format',
      'triplets',
      '--out',
      out,
      '--mode',
      'val',
    ]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('arclight export: no rows for triplets from 5 rollout(s)');
    expect(empty.stderr).toMatch(/4 rollout\(s\) skipped, mode: .*--mode/);
    expect(empty.stderr).toMatch(/1 rollout\(s\) skipped, unfinished: .*--rollout-status running/);
    expect(existsSync(out)).toBe(false);
    const noIds = await runCliToEnd([
      'export',
      '--db',
      db,
      '--format',
      'verl-parquet',
      '--out',
      out,
      '--llm-call-match',
      'anthropic',
    ]);
    expect(noIds.code).toBe(2);
    expect(noIds.stderr).toMatch(/no_llm_calls: .*--llm-call-match/);
    const allowed = await runCliToEnd([
      'export',
      '--db',
      db,
      '--format',
      'triplets',
      '--out',
      out,
      '--mode',
      'val',
      '--allow-empty',
    ]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('');
    expect(allowed.stdout).toMatch(/why skipped, and the fix:\n {4}- 4 rollout\(s\) skipped, mode/);
  });

  it('arclight doctor: per rollout calls, token ids, rewards, status and what an export would skip', async () => {
    const { db } = await sqliteStoreFile();
    const text = await runCliToEnd(['doctor', '--db', db]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('arclight doctor: 5 rollout(s)');
    expect(text.stdout).toMatch(/succeeded +2 +2\/2 +0\/2 +2\/2 +0\/2 +1 +ok \/ ok/);
    expect(text.stdout).toMatch(/preparing +0 .* skip: unfinished \/ skip: unfinished/);
    expect(text.stdout).toMatch(/- unfinished \(1 rollout\(s\)\): .*--rollout-status running/);
    const json = await runCliToEnd(['doctor', '--db', db, '--json']);
    const report = JSON.parse(json.stdout) as {
      rollouts: Array<{
        status: string;
        llm_calls: number;
        calls_with_token_ids: number;
        reward: number | null;
      }>;
    };
    expect(report.rollouts).toHaveLength(5);
    expect(
      report.rollouts
        .filter((r) => r.status === 'succeeded')
        .map((r) => r.reward)
        .sort(),
    ).toEqual([0, 0, 1, 1]);
    expect(report.rollouts.every((r) => r.calls_with_token_ids === r.llm_calls)).toBe(true);
    const unmatched = await runCliToEnd(['doctor', '--db', db, '--llm-call-match', 'anthropic']);
    expect(unmatched.code).toBe(1);
    expect(unmatched.stdout).toMatch(/no_llm_calls \(4 rollout\(s\)\): .*--llm-call-match/);
  });

  it('draws a progress bar on a TTY (stderr), then clears it', async () => {
    const { dir, db } = await sqliteStoreFile();
    const out = join(dir, 'sft.jsonl');
    const command = [
      process.execPath,
      BIN,
      'export',
      '--db',
      db,
      '--format',
      'trl-sft',
      '--out',
      out,
    ]
      .map((a) => `'${a}'`)
      .join(' ');
    const result = spawnSync('script', ['-qec', command, '/dev/null'], {
      env: cliEnv(),
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/exporting \[█+\] 100% 5\/5 rollouts/);
    expect(result.stdout).toContain('arclight export: wrote 4 rows (trl-sft)');
  });
});

describe('arclight export --store', { timeout: 60_000 }, () => {
  it('reads a running server through LightningStoreClient (with its token)', async () => {
    const store = new InMemoryLightningStore();
    await populate(store);
    const server = createLightningStoreServer(store, { port: 0, token: 's3cret' });
    const url = await server.listen();
    try {
      const out = join(tempDir(), 'art.jsonl');
      const denied = await runCliToEnd(['export', '--store', url, '--format', 'art', '--out', out]);
      expect(denied.code).toBe(1);
      expect(denied.stderr).toMatch(/^arclight export: .*token/i);
      const cli = runCli(['export', '--store', url, '--format', 'art', '--out', out], {
        env: { ARCLIGHT_STORE_TOKEN: 's3cret' },
      });
      const result = await cli.finished;
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('task groups: 2');
      const groups = readFileSync(out, 'utf8').trimEnd().split('\n');
      expect(
        groups.map((g) => (JSON.parse(g) as { trajectories: unknown[] }).trajectories.length),
      ).toEqual([2, 2]);
    } finally {
      await server.close();
      await store.close();
    }
  });
});

describe('renderProgress', () => {
  it('shows the bar, the percentage, counts and the row rate', () => {
    expect(renderProgress({ done: 500, total: 1000, rows: 2469, elapsedSeconds: 2 })).toBe(
      'exporting [████████████░░░░░░░░░░░░]  50% 500/1,000 rollouts · 2,469 rows · 1,235 rows/s',
    );
    expect(renderProgress({ done: 0, total: 0, rows: 0, elapsedSeconds: 0 })).toContain(
      '0/0 rollouts',
    );
  });
});
