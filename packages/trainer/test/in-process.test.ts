import { type Algorithm, type AlgorithmContext, PromptTemplate, type Span } from '@arclight/core';
import { emitMessage } from '@arclight/otel';
import { type Hook, LitAgent, rollout } from '@arclight/runner';
import { InMemoryLightningStore } from '@arclight/store';
import { describe, expect, it, vi } from 'vitest';
import { DevBaseline, InProcessExecutionStrategy, Trainer } from '../src/index.js';

const FAST_RUNNER = { pollInterval: 0.02, intervalJitter: 0, heartbeatInterval: 0, logger: null };
const newStore = () => new InMemoryLightningStore({ scanDebounceSeconds: 0 });

/** Enqueues every train task and waits until all are finished. */
class EnqueueAll implements Algorithm<{ x: number }> {
  seen: AlgorithmContext<{ x: number }> | null = null;
  ids: string[] = [];
  async run(ctx: AlgorithmContext<{ x: number }>): Promise<void> {
    this.seen = ctx;
    for (const input of ctx.trainDataset ?? []) {
      this.ids.push((await ctx.store.enqueueRollout({ input, mode: 'train' })).rollout_id);
    }
    await ctx.store.waitForRollouts({ rollout_ids: this.ids, timeout: 30 });
  }
}

describe('Trainer.fit in-process', () => {
  it('runs the algorithm with N concurrent runners sharing the store, then stops them', async () => {
    const store = newStore();
    const algorithm = new EnqueueAll();
    const ends: Span[][] = [];
    const hooks: Hook = { onRolloutEnd: ({ spans }) => void ends.push(spans) };
    const adapter = { adapt: (spans: Span[]) => spans.length };
    const resources = { p: new PromptTemplate({ template: 'x={x}', engine: 'f-string' }) };
    const trainer = new Trainer<{ x: number }>({
      nRunners: 3,
      store,
      algorithm,
      hooks,
      adapter,
      initialResources: resources,
      runner: FAST_RUNNER,
      handleSignals: false,
    });
    expect(trainer.nRunners).toBe(3);
    const agent = rollout<{ x: number }>(async (task) => {
      emitMessage(`x=${task.x}`);
      await new Promise((r) => setTimeout(r, 5));
      return task.x / 10;
    });
    const tasks = Array.from({ length: 12 }, (_, x) => ({ x }));
    await trainer.fit(agent, { trainDataset: tasks, valDataset: [{ x: 99 }] });

    expect(algorithm.seen?.store).toBe(store);
    expect(algorithm.seen?.valDataset).toEqual([{ x: 99 }]);
    expect(algorithm.seen?.initialResources).toBe(resources);
    expect(algorithm.seen?.adapter).toBe(adapter);
    const rollouts = await Promise.all(algorithm.ids.map((id) => store.getRolloutById(id)));
    expect(rollouts.map((r) => r?.status)).toEqual(tasks.map(() => 'succeeded'));
    const workers = new Set<string>();
    for (const id of algorithm.ids) workers.add((await store.getLatestAttempt(id))!.worker_id!);
    expect([...workers].every((w) => /^Worker-[012]$/.test(w))).toBe(true);
    expect(workers.size).toBeGreaterThan(1);
    expect(ends).toHaveLength(12);
    expect(
      ends.every(
        (spans) =>
          spans.map((s) => s.name).join() === 'agentlightning.message,agentlightning.annotation',
      ),
    ).toBe(true);
    // The algorithm returned, so fit stopped the runners: nothing is left running.
    expect((await store.queryRollouts({ status_in: ['preparing', 'running'] })).total).toBe(0);
    await store.close();
  });

  it('without an algorithm the runners serve the queue until the signal aborts', async () => {
    const store = newStore();
    const trainer = new Trainer({ store, runner: FAST_RUNNER, handleSignals: false });
    const controller = new AbortController();
    const fitting = trainer.fit(
      rollout(async () => 1),
      { signal: controller.signal },
    );
    const { rollout_id } = await store.enqueueRollout({ input: 'manual' });
    const [done] = await store.waitForRollouts({ rollout_ids: [rollout_id], timeout: 30 });
    expect(done?.status).toBe('succeeded');
    controller.abort();
    await fitting;
    await store.close();
  });

  it('each runner stops after maxRollouts', async () => {
    const store = newStore();
    const counts = new Map<string, number>();
    const hooks: Hook = {
      onRolloutStart: ({ runner }) =>
        void counts.set(runner.workerId, (counts.get(runner.workerId) ?? 0) + 1),
    };
    const controller = new AbortController();
    const trainer = new Trainer({
      store,
      nRunners: 2,
      maxRollouts: 2,
      hooks,
      runner: FAST_RUNNER,
      handleSignals: false,
    });
    await store.enqueueManyRollouts(Array.from({ length: 6 }, (_, i) => ({ input: i })));
    const fitting = trainer.fit(
      rollout(async () => 1),
      { signal: controller.signal },
    );
    // 2 runners × 2 rollouts; the rest stays queued.
    const poll = async () => (await store.queryRollouts({ status_in: ['succeeded'] })).total;
    for (let i = 0; i < 500 && (await poll()) < 4; i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    await fitting;
    expect(await poll()).toBe(4);
    expect([...counts.values()]).toEqual([2, 2]);
    expect((await store.queryRollouts({ status_in: ['queuing'] })).total).toBe(2);
    await store.close();
  });

  it('an algorithm error stops the runners and rejects fit', async () => {
    const store = newStore();
    const trainer = new Trainer({
      store,
      nRunners: 2,
      algorithm: {
        async run() {
          throw new Error('algorithm broke');
        },
      },
      runner: FAST_RUNNER,
      logger: null,
      handleSignals: false,
    });
    await expect(trainer.fit(rollout(async () => 1))).rejects.toThrow('algorithm broke');
    await store.close();
  });

  it('a runner crash (here: a closed store) stops the algorithm and rejects fit', async () => {
    const store = newStore();
    let sawStop = false;
    const trainer = new Trainer({
      store,
      algorithm: {
        async run({ signal }) {
          await store.close();
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
          sawStop = true;
        },
      },
      runner: FAST_RUNNER,
      logger: null,
      handleSignals: false,
    });
    await expect(trainer.fit(rollout(async () => 1))).rejects.toThrow(/closed/);
    expect(sawStop).toBe(true);
  });

  it('abandons a bundle that ignores the stop after gracefulTimeout', async () => {
    const store = newStore();
    const trainer = new Trainer({
      store,
      strategy: new InProcessExecutionStrategy({ nRunners: 1, gracefulTimeout: 0.1 }),
      algorithm: { run: () => new Promise<void>(() => {}) },
      runner: FAST_RUNNER,
      logger: null,
      handleSignals: false,
    });
    await trainer.fit(
      rollout(async () => 1),
      { signal: AbortSignal.timeout(50) },
    );
    await store.close();
  });
});

describe('retries end to end', () => {
  it('a hanging attempt is timed out by the watchdog and retried; the retry succeeds', async () => {
    const store = newStore();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ids: string[] = [];
    const algorithm: Algorithm = {
      async run({ store: s }) {
        const { rollout_id } = await s.enqueueRollout({
          input: 'task',
          config: { timeout_seconds: 0.3, max_attempts: 2, retry_condition: ['timeout'] },
        });
        ids.push(rollout_id);
        await s.waitForRollouts({ rollout_ids: ids, timeout: 30 });
      },
    };
    const agent = rollout(async (_task, { rollout: r }) => {
      if (r.attempt.sequence_id === 1) await released;
      return r.attempt.sequence_id;
    });
    const trainer = new Trainer({
      store,
      algorithm,
      strategy: new InProcessExecutionStrategy({ nRunners: 2, gracefulTimeout: 0.2 }),
      runner: FAST_RUNNER,
      logger: null,
      handleSignals: false,
    });
    await trainer.fit(agent);
    const attempts = (await store.queryAttempts(ids[0]!)).items;
    expect(attempts.map((a) => a.status)).toEqual(['timeout', 'succeeded']);
    expect((await store.getRolloutById(ids[0]!))?.status).toBe('succeeded');
    const spans = (await store.querySpans(ids[0]!, { attempt_id: 'latest' })).items;
    expect(spans.map((s) => s.attributes['agentlightning.reward.0.value'])).toEqual([2]);
    release();
    await store.close();
  });
});

describe('Trainer.dev', () => {
  it('runs every task once with the DevBaseline and reports rewards', async () => {
    const store = newStore();
    const baseline = new DevBaseline({ pollInterval: 0.05, logger: null });
    class Scorer extends LitAgent<{ x: number }> {
      override async rollout(task: { x: number }) {
        return task.x;
      }
    }
    const trainer = new Trainer({
      store,
      algorithm: baseline,
      nRunners: 2,
      adapter: { adapt: (spans) => spans.map((s) => s.name) },
      initialResources: { p: new PromptTemplate({ template: 't', engine: 'f-string' }) },
      runner: FAST_RUNNER,
      handleSignals: false,
    });
    await trainer.dev(new Scorer(), { devDataset: [{ x: 1 }, { x: 2 }], valDataset: [{ x: 3 }] });
    expect(baseline.results.map((r) => [r.mode, r.status, r.final_reward, r.attempts])).toEqual([
      ['train', 'succeeded', 1, 1],
      ['train', 'succeeded', 2, 1],
      ['val', 'succeeded', 3, 1],
    ]);
    expect(baseline.results[0]!.adapted).toEqual(['agentlightning.annotation']);
    expect((await store.getResourcesById('default'))?.resources.p).toBeInstanceOf(PromptTemplate);
    await store.close();
  });

  it('uses a DevBaseline by default and refuses an algorithm that is not fast', async () => {
    const store = newStore();
    const quiet = new Trainer({ store, runner: FAST_RUNNER, handleSignals: false });
    // The default DevBaseline reports each rollout on the console.
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const seen: number[] = [];
    try {
      await quiet.dev(
        rollout<number>(async (t) => void seen.push(t)),
        { devDataset: [5, 6] },
      );
      expect(log.mock.calls.map(([line]) => String(line))).toEqual([
        expect.stringMatching(
          /^\[Rollout ro-\w+\] train succeeded after 1 attempt\(s\); final reward null$/,
        ),
        expect.stringMatching(/train succeeded/),
      ]);
    } finally {
      log.mockRestore();
    }
    expect(seen.sort()).toEqual([5, 6]);

    const slow = new Trainer({ store, algorithm: { run: async () => {} }, handleSignals: false });
    await expect(slow.dev(rollout(async () => 1))).rejects.toThrow(/fast algorithm/);
    await store.close();
  });
});

describe('Trainer options', () => {
  it('validates strategy and runner counts, naming the option', () => {
    expect(() => new Trainer({ nRunners: 0, store: newStore() })).toThrow(/nRunners/);
    expect(() => new Trainer({ strategy: 'threads' as never, store: newStore() })).toThrow(
      /strategy/,
    );
  });

  it('creates the store lazily from a factory', () => {
    let made = 0;
    const trainer = new Trainer({
      store: () => {
        made += 1;
        return newStore();
      },
    });
    expect(made).toBe(0);
    expect(trainer.store).toBe(trainer.store);
    expect(made).toBe(1);
  });
});
