import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SqliteLightningStore } from '@arclight/store';
import { chooseRoom, ROOM_RULES, rulesStatedIn } from '@arclight/test-fixtures';
import { afterAll, describe, expect, it } from 'vitest';
import { baselinePrompt, gradeChoice, parseChoice, promptValues } from '../src/agent.js';
import { type DemoSummary, runDemo } from '../src/demo.js';
import { setupModel } from '../src/model.js';
import { getRoomsAndAvailability } from '../src/rooms.js';
import { loadRoomTasks, splitTrainVal } from '../src/tasks.js';

const tasks = loadRoomTasks();
const ALL_RULES = new Set(ROOM_RULES.map((r) => r.id));

describe('the room-selector task', () => {
  it('has upstream’s 57 tasks, and the simulated model with every rule reproduces each expected choice', () => {
    expect(tasks).toHaveLength(57);
    expect(splitTrainVal(tasks).train).toHaveLength(28);
    for (const task of tasks) {
      const { date, time, duration_min } = task.task_input;
      const { rooms } = getRoomsAndAvailability(date, time, duration_min);
      expect(chooseRoom(rooms, task.task_input, ALL_RULES), task.id).toBe(task.expected_choice);
    }
  });

  it('states no rule in the seed prompt', () => {
    const text = baselinePrompt().format(promptValues(tasks[0]!.task_input));
    expect(text).toBe(
      'Find a room on 2025-10-13 at 16:30 for 30 minutes, 12 attendees. Needs: projector, confphone. ' +
        'Accessible required: yes',
    );
    expect(rulesStatedIn(text).size).toBe(0);
  });

  it('parses and grades answers', () => {
    expect(parseChoice('final_choice: Orion\nreason: closest')).toBe('Orion');
    expect(parseChoice('final_choice: **No Room**')).toBe('No Room');
    expect(parseChoice('I would book lyra.')).toBe('Lyra');
    expect(parseChoice('final_choice: Mars')).toBeNull();
    expect(parseChoice(null)).toBeNull();
    expect(gradeChoice('Orion', 'Orion')).toBe(1);
    expect(gradeChoice('No Room', 'Nova')).toBe(0);
    expect(gradeChoice(null, 'No Room')).toBe(0);
  });

  it('uses a real endpoint when OPENAI_* is set, the simulated one otherwise', async () => {
    const real = await setupModel({ OPENAI_BASE_URL: 'http://llm.local/v1', OPENAI_MODEL: 'qwen' });
    expect(real.simulated).toBe(false);
    expect(real.llm).toMatchObject({
      endpoint: 'http://llm.local/v1',
      model: 'qwen',
      api_key: null,
    });
    expect(real.requestTokenIds).toBe(false);
    await real.close();
    const offline = await setupModel({ OPENAI_BASE_URL: 'http://llm.local/v1' }, true);
    expect(offline.simulated).toBe(true);
    expect(offline.description).toMatch(/SIMULATED/);
    await offline.close();
  });
});

interface Captured {
  text: string;
  write(s: string): void;
}
const capture = (): Captured => ({
  text: '',
  write(s: string) {
    this.text += s;
  },
});

function expectExports(summary: DemoSummary, outDir: string) {
  for (const file of [
    'arclight.sqlite',
    'triplets.jsonl',
    'verl-parquet.parquet',
    'best-prompt.txt',
    'apo.log',
    'summary.json',
  ]) {
    expect(existsSync(join(outDir, file)), file).toBe(true);
  }
  const [triplets, verl] = summary.exports;
  expect(triplets).toMatchObject({ format: 'triplets', out: join(outDir, 'triplets.jsonl') });
  expect(verl).toMatchObject({ format: 'verl-parquet', out: join(outDir, 'verl-parquet.parquet') });
  // Every rollout made two LLM calls (tool call, answer), each exported with its token ids.
  expect(triplets!.rollouts).toBe(summary.rollouts);
  expect(triplets!.rows).toBe(2 * summary.rollouts);
  expect(verl!.rows).toBe(2 * summary.rollouts);
  const first = JSON.parse(readFileSync(join(outDir, 'triplets.jsonl'), 'utf8').split('\n')[0]!);
  expect(first.prompt.token_ids.length).toBeGreaterThan(0);
  expect(first.response.token_ids.length).toBeGreaterThan(0);
  expect(readFileSync(join(outDir, 'best-prompt.txt'), 'utf8')).toBe(`${summary.best.template}\n`);
  expect(readFileSync(join(outDir, 'apo.log'), 'utf8')).toMatch(
    /\[INFO\] \[Round 00 \| Prompt v0\]/,
  );
}

describe('the demo', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'room-selector-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('improves the prompt with in-process runners, exports the store and says where everything is', async () => {
    const outDir = tempDir();
    const out = capture();
    const summary = await runDemo({
      outDir,
      nRunners: 2,
      beamRounds: 1,
      beamWidth: 1,
      branchFactor: 2,
      valBatchSize: 5,
      tasks: tasks.slice(0, 20),
      offline: true,
      env: {},
      out,
      handleSignals: false,
    });
    expect(summary.simulated).toBe(true);
    expect(summary.seed.score).not.toBeNull();
    expect(summary.best.score).toBeGreaterThan(summary.seed.score!);
    expect(summary.curve.map((p) => p.round)).toEqual([0, 1]);
    expectExports(summary, outDir);
    const store = new SqliteLightningStore({ path: summary.files.store });
    expect((await store.queryRollouts({})).total).toBe(summary.rollouts);
    await store.close();
    // Plain lines (not a terminal): no cursor control.
    expect(out.text).not.toContain('\x1b[');
    expect(out.text).toMatch(/LLM: SIMULATED/);
    expect(out.text).toMatch(/Seed prompt v0: validation reward \d\.\d{3} \(10 tasks\)/);
    expect(out.text).toMatch(/Validation reward per round/);
    expect(out.text).toContain(`Exported triplets: ${2 * summary.rollouts} rows`);
    expect(out.text).toContain(`Store (SQLite): ${summary.files.store}`);
    expect(JSON.parse(readFileSync(summary.files.summary, 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(summary)),
    );
  });

  it('runs from the command line with runner processes (client-server)', () => {
    const outDir = tempDir();
    const env = { ...process.env };
    delete env.OPENAI_API_KEY;
    delete env.OPENAI_BASE_URL;
    const result = spawnSync(
      process.execPath,
      [
        resolve(import.meta.dirname, '../dist/main.js'),
        ...['--out', outDir, '--runners', '2', '--client-server', '--rounds', '1'],
        ...[
          '--beam-width',
          '1',
          '--branch-factor',
          '1',
          '--val-batch',
          '4',
          '--tasks',
          '12',
          '--json',
        ],
      ],
      { env, encoding: 'utf8', timeout: 180_000 },
    );
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    const summary = JSON.parse(lines.at(-1)!) as DemoSummary;
    expect(summary).toMatchObject({ simulated: true, strategy: 'client-server', runners: 2 });
    expectExports(summary, outDir);
    expect(result.stdout).toContain(`Summary: ${join(outDir, 'summary.json')}`);
  });
});
