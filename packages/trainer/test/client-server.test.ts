import { fileURLToPath } from 'node:url';
import type { Algorithm } from '@arclight/core';
import { rollout } from '@arclight/runner';
import { InMemoryLightningStore } from '@arclight/store';
import { freePort } from '@arclight/test-fixtures/python';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientServerExecutionStrategy, Trainer } from '../src/index.js';
import { eventually, isAlive, ScriptProcess, TRAIN_SCRIPT } from './support/processes.js';

const scripts: ScriptProcess[] = [];
afterEach(() => {
  for (const script of scripts.splice(0)) script.kill('SIGKILL');
});
const start = (env: Record<string, string>) => {
  const script = new ScriptProcess(env);
  scripts.push(script);
  return script;
};

/** A strategy whose runner processes run the fixture training script (the test process is the trainer). */
const strategyFor = (nRunners: number, extra: Record<string, unknown> = {}) =>
  new ClientServerExecutionStrategy({
    nRunners,
    serverPort: 0,
    runnerScript: TRAIN_SCRIPT,
    runnerArgs: [],
    execArgv: [],
    gracefulTimeout: 10,
    terminateTimeout: 5,
    ...extra,
  });

/** Enqueues `n` tasks and waits for all of them. */
function enqueueAndWait(n: number): Algorithm & { ids: string[] } {
  return {
    ids: [],
    async run({ store, signal }) {
      for (let x = 0; x < n; x++) {
        this.ids.push((await store.enqueueRollout({ input: { x }, mode: 'train' })).rollout_id);
      }
      let done = 0;
      while (!signal.aborted && done < n) {
        done = (await store.waitForRollouts({ rollout_ids: this.ids, timeout: 0.2 })).length;
      }
    },
  };
}

describe('client-server strategy', () => {
  it('4 runner processes complete N rollouts over HTTP, then exit cleanly (no orphans)', async () => {
    const store = new InMemoryLightningStore({ scanDebounceSeconds: 0 });
    const strategy = strategyFor(4);
    const algorithm = enqueueAndWait(24);
    const trainer = new Trainer({ store, strategy, algorithm, handleSignals: false });
    expect(trainer.nRunners).toBe(4);
    // The agent passed here is not used: runners live in the processes (they run the fixture's agent).
    await trainer.fit(rollout(async () => 0));

    const rollouts = await Promise.all(algorithm.ids.map((id) => store.getRolloutById(id)));
    expect(rollouts.map((r) => r?.status)).toEqual(algorithm.ids.map(() => 'succeeded'));
    const rewards: number[] = [];
    const workers = new Set<string>();
    for (const id of algorithm.ids) {
      const spans = (await store.querySpans(id)).items;
      rewards.push(spans[0]?.attributes['agentlightning.reward.0.value'] as number);
      workers.add((await store.getLatestAttempt(id))!.worker_id!);
    }
    expect(rewards).toEqual(algorithm.ids.map((_, x) => x / 10));
    expect([...workers].every((w) => /^Worker-[0-3]$/.test(w))).toBe(true);
    // Heartbeats came from the runner processes.
    const registered = (await store.queryWorkers()).items.filter((w) => w.heartbeat_stats);
    expect(registered.length).toBeGreaterThan(0);
    expect(registered[0]!.heartbeat_stats).toHaveProperty('cpu_threads');

    const pids = strategy.runnerPids;
    expect(pids).toHaveLength(4);
    expect(new Set(pids).size).toBe(4);
    expect(pids.filter(isAlive)).toEqual([]);
    await store.close();
  });

  it('a training script run as a program trains end to end with its own runner processes', async () => {
    const main = start({ FIXTURE_RUNNERS: '4', FIXTURE_TASKS: '16', FIXTURE_PORT: '0' });
    const { code } = await main.exited;
    expect(main.stderr).not.toMatch(/crashed|exited|Error/);
    expect(code).toBe(0);
    expect(main.stdout).toContain('MAIN_DONE');
    const result = JSON.parse(main.lines('RESULT')[0]!);
    expect(result.finished).toBe(16);
    expect(new Set(result.statuses)).toEqual(new Set(['succeeded']));
    const pids = main.runnerPids();
    expect(pids).toHaveLength(4);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('runner processes stop by themselves when the trainer process dies', async () => {
    const main = start({
      FIXTURE_RUNNERS: '2',
      FIXTURE_AGENT: 'hang',
      FIXTURE_PORT: '0',
      FIXTURE_GRACEFUL: '1',
    });
    await eventually(
      () => main.runnerPids().length === 2 && main.lines('HANGING').length > 0,
      'runners to start',
    );
    const pids = main.runnerPids();
    main.kill('SIGKILL');
    await main.exited;
    await eventually(() => pids.every((pid) => !isAlive(pid)), 'orphaned runners to exit');
  });

  it('SIGINT stops gracefully, escalating to SIGTERM and SIGKILL for runners that do not stop', async () => {
    const main = start({
      FIXTURE_RUNNERS: '2',
      FIXTURE_AGENT: 'hang',
      FIXTURE_IGNORE_SIGTERM: '1',
      FIXTURE_PORT: '0',
      FIXTURE_GRACEFUL: '0.5',
      FIXTURE_TERMINATE: '0.5',
    });
    await eventually(
      () => main.lines('HANGING').length > 0 && main.runnerPids().length === 2,
      'a hanging rollout',
    );
    const pids = main.runnerPids();
    main.kill('SIGINT');
    const { code } = await main.exited;
    expect(code).toBe(0);
    expect(main.stdout).toContain('MAIN_DONE');
    expect(main.stderr).toContain('Interrupted; stopping gracefully');
    expect(main.stderr).toMatch(/sending SIGTERM to Worker-\d \(pid \d+\)/);
    expect(main.stderr).toMatch(/sending SIGKILL to Worker-\d \(pid \d+\)/);
    expect(main.lines('IGNORED_SIGTERM').length).toBeGreaterThan(0);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('roles from the environment: an algorithm process and a separate runner "machine"', async () => {
    const port = await freePort();
    const algorithmSide = start({
      ARCLIGHT_ROLE: 'algorithm',
      ARCLIGHT_SERVER_PORT: String(port),
      FIXTURE_TASKS: '10',
    });
    await eventually(
      () => algorithmSide.stdout.includes('ENQUEUED 10'),
      'the algorithm side to enqueue',
    );
    const runnerSide = start({
      ARCLIGHT_ROLE: 'runner',
      ARCLIGHT_SERVER_PORT: String(port),
      FIXTURE_RUNNERS: '3',
    });
    const { code } = await algorithmSide.exited;
    expect(code).toBe(0);
    const result = JSON.parse(algorithmSide.lines('RESULT')[0]!);
    expect(result.finished).toBe(10);
    expect(new Set(result.statuses)).toEqual(new Set(['succeeded']));
    expect(result.workers.every((w: string) => /^Worker-[0-2]$/.test(w))).toBe(true);
    // Runners of the runner role serve until stopped.
    expect(runnerSide.lines('MAIN_PID')[0]).toMatch(/role=runner/);
    // The algorithm side may finish before the last runner process has started and reported its pid.
    await eventually(() => runnerSide.runnerPids().length === 3, 'three runner processes');
    const pids = runnerSide.runnerPids();
    expect(pids).toHaveLength(3);
    runnerSide.kill('SIGINT');
    const runnerExit = await runnerSide.exited;
    expect(runnerExit.code).toBe(0);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('fails fit when runner processes never reach Trainer.fit (wrong runnerScript)', async () => {
    const store = new InMemoryLightningStore();
    const notAScript = fileURLToPath(new URL('./fixtures/not-a-trainer.mjs', import.meta.url));
    const trainer = new Trainer({
      store,
      strategy: strategyFor(2, { runnerScript: notAScript }),
      algorithm: {
        run: ({ signal }) =>
          new Promise((resolve) => signal.addEventListener('abort', () => resolve())),
      },
      logger: null,
      handleSignals: false,
    });
    await expect(trainer.fit(rollout(async () => 1))).rejects.toThrow(
      /before reaching Trainer\.fit\(\)\/dev\(\)/,
    );
    await store.close();
  });
});
