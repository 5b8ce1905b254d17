import { type Logger, PromptTemplate, type Span } from '@arclight/core';
import { rollout } from '@arclight/runner';
import { InMemoryLightningStore, type LightningStore } from '@arclight/store';
import { Trainer } from '@arclight/trainer';
import { describe, expect, it } from 'vitest';
import { Baseline } from '../src/index.js';

interface Task {
  n: number;
}

/** A slow agent (so the queue fills up) whose reward is n % 2. */
const agent = rollout<Task>(async (task, { promptTemplate }) => {
  expect(promptTemplate.format({ n: task.n })).toBe(`n=${task.n}`);
  await new Promise((r) => setTimeout(r, 15));
  return task.n % 2;
});

function capture(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`INFO ${m}`),
    warn: (m) => lines.push(`WARN ${m}`),
    error: (m) => lines.push(`ERROR ${m}`),
  };
}

/** A store that records how many rollouts were waiting whenever one was enqueued. */
function watchedStore(): { store: LightningStore; waitingAtEnqueue: number[] } {
  const inner = new InMemoryLightningStore();
  const waitingAtEnqueue: number[] = [];
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'enqueueRollout') {
        return async (params: Parameters<LightningStore['enqueueRollout']>[0]) => {
          const waiting = await target.queryRollouts({ status_in: ['queuing', 'requeuing'] });
          waitingAtEnqueue.push(waiting.total);
          return target.enqueueRollout(params);
        };
      }
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store, waitingAtEnqueue };
}

describe('Baseline', () => {
  it('runs every train then val task per epoch with a bounded queue, logging rollouts, spans and the adapter output', async () => {
    const { store, waitingAtEnqueue } = watchedStore();
    const logger = capture();
    const baseline = new Baseline({
      nEpochs: 2,
      maxQueueLength: 1,
      pollInterval: 0.02,
      spanVerbosity: 'key_values',
      logger,
    });
    const prompt = new PromptTemplate({ template: 'n={n}', engine: 'f-string' });
    const trainer = new Trainer<Task>({
      nRunners: 1,
      store,
      algorithm: baseline,
      initialResources: { prompt },
      adapter: { adapt: (spans: Span[]) => spans.map((s) => s.name) },
      runner: { pollInterval: 0.01, intervalJitter: 0 },
      handleSignals: false,
      logger: null,
    });
    const train = [1, 2, 3, 4, 5].map((n) => ({ n }));
    const val = [6, 7].map((n) => ({ n }));
    await trainer.dev(agent, { devDataset: train, valDataset: val });

    const { results } = baseline;
    expect(results).toHaveLength(14);
    expect(results.map((r) => r.epoch)).toEqual([...Array(7).fill(1), ...Array(7).fill(2)]);
    expect(results.map((r) => r.mode)).toEqual([
      ...Array(5).fill('train'),
      'val',
      'val',
      ...Array(5).fill('train'),
      'val',
      'val',
    ]);
    expect(results.map((r) => (r.input as Task).n)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7,
    ]);
    expect(results.map((r) => r.final_reward)).toEqual([1, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1]);
    for (const r of results) {
      expect(r.status).toBe('succeeded');
      expect(r.attempts).toEqual([
        expect.objectContaining({ sequence_id: 1, status: 'succeeded', worker_id: 'Worker-0' }),
      ]);
      expect(r.adapted).toEqual(['agentlightning.annotation']);
    }
    // The queue never held more than maxQueueLength rollouts when a new one was added (and it did fill up).
    expect(Math.max(...waitingAtEnqueue)).toBe(1);
    expect(waitingAtEnqueue).toHaveLength(14);

    const update = await store.getResourcesById('default');
    expect(update?.resources.prompt).toBeInstanceOf(PromptTemplate);
    const first = results[0]!.rollout_id;
    expect(logger.lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`^INFO \\[Rollout ${first}\\] Finished with status succeeded in`),
      ),
    );
    expect(logger.lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`^INFO \\[Rollout ${first} \\| Attempt 1\\] ID: .*Worker: Worker-0`),
      ),
    );
    expect(logger.lines).toContainEqual(
      expect.stringMatching(
        /\(agentlightning\.annotation\) From .* Attributes: \{"agentlightning\.reward\.0\.name":"primary"/,
      ),
    );
    expect(logger.lines).toContainEqual(
      `INFO [Rollout ${first}] Adapted data: ["agentlightning.annotation"]`,
    );
    await store.close();
  });

  it('logs span keys by default and warns once without an adapter or resources', async () => {
    const store = new InMemoryLightningStore();
    const logger = capture();
    const baseline = new Baseline({ pollInterval: 0.02, logger });
    const trainer = new Trainer<Task>({
      store,
      algorithm: baseline,
      runner: { pollInterval: 0.01, intervalJitter: 0 },
      handleSignals: false,
      logger: null,
    });
    await trainer.dev(
      rollout<Task>(async (task) => task.n),
      { devDataset: [{ n: 1 }, { n: 2 }] },
    );
    expect(baseline.results.map((r) => r.final_reward)).toEqual([1, 2]);
    expect(logger.lines).toContain(
      'WARN No initial resources provided. Skip initializing resources.',
    );
    expect(logger.lines.filter((l) => l.includes('No adapter set'))).toHaveLength(1);
    expect(logger.lines).toContainEqual(
      expect.stringMatching(
        /Attribute keys: \["agentlightning\.reward\.0\.name","agentlightning\.reward\.0\.value"\]/,
      ),
    );
    await store.close();
  });

  it('reports a run without datasets and validates its options', async () => {
    const store = new InMemoryLightningStore();
    const logger = capture();
    const baseline = new Baseline({ logger });
    await baseline.run({ store, signal: new AbortController().signal });
    expect(logger.lines).toEqual([
      'ERROR Baseline requires at least one dataset: pass a train or val dataset.',
    ]);
    expect((await store.queryRollouts({})).total).toBe(0);
    expect(baseline.fast).toBe(true);
    expect(() => new Baseline({ nEpochs: 0 })).toThrow(/nEpochs/);
    expect(() => new Baseline({ maxQueueLength: -1 })).toThrow(/maxQueueLength/);
    expect(() => new Baseline({ spanVerbosity: 'all' as never })).toThrow(/spanVerbosity/);
    await store.close();
  });
});
