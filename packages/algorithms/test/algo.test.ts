import { type AlgorithmContext, PromptTemplate, type Span, ValidationError } from '@arclight/core';
import { rollout } from '@arclight/runner';
import { InMemoryLightningStore } from '@arclight/store';
import { Trainer } from '@arclight/trainer';
import { describe, expect, it } from 'vitest';
import { algo, FunctionalAlgorithm, waitForFinished } from '../src/index.js';

const agent = rollout<{ q: string }>(
  async (task, { promptTemplate }) => promptTemplate.format(task).length,
);

describe('algo()', () => {
  it('injects the store, datasets, initial resources, adapter and stop signal of Trainer.fit', async () => {
    const store = new InMemoryLightningStore();
    const prompt = new PromptTemplate({ template: 'Q: {q}', engine: 'f-string' });
    const initialResources = { prompt };
    const adapter = { adapt: (spans: Span[]) => spans.length };
    const trainDataset = [{ q: 'a' }, { q: 'bb' }];
    const valDataset = [{ q: 'ccc' }];
    let seen: AlgorithmContext<{ q: string }> | undefined;
    const rewards: number[] = [];
    const algorithm = algo<{ q: string }>(async (ctx) => {
      seen = ctx;
      const { store, trainDataset, initialResources, signal } = ctx;
      await store.updateResources('mine', initialResources!);
      const ids = [];
      for (const input of trainDataset!) {
        ids.push(
          (await store.enqueueRollout({ input, mode: 'train', resources_id: 'mine' })).rollout_id,
        );
      }
      for (const rollout of await waitForFinished(store, ids, { signal, pollInterval: 0.1 })) {
        const spans = (await store.querySpans(rollout.rollout_id)).items;
        rewards.push(spans.at(-1)!.attributes['agentlightning.reward.0.value'] as number);
      }
    });
    const trainer = new Trainer({
      store,
      algorithm,
      initialResources,
      adapter,
      runner: { pollInterval: 0.01, intervalJitter: 0 },
      handleSignals: false,
      logger: null,
    });
    await trainer.fit(agent, { trainDataset, valDataset });
    expect(seen?.store).toBe(store);
    expect(seen?.trainDataset).toBe(trainDataset);
    expect(seen?.valDataset).toBe(valDataset);
    expect(seen?.initialResources).toBe(initialResources);
    expect(seen?.adapter).toBe(adapter);
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
    // "Q: a" and "Q: bb": the agent ran with the resources the algorithm published.
    expect(rewards).toEqual([4, 5]);
    // fit() returned because the function did; the trainer then stopped the runners.
    expect(seen?.signal.aborted).toBe(true);
    await store.close();
  });

  it('marks fast algorithms for Trainer.dev() and accepts sync functions', async () => {
    let calls = 0;
    const fast = algo(
      () => {
        calls++;
      },
      { fast: true },
    );
    expect(fast).toBeInstanceOf(FunctionalAlgorithm);
    expect(fast.fast).toBe(true);
    const store = new InMemoryLightningStore();
    const options = { store, handleSignals: false, logger: null } as const;
    await new Trainer({ ...options, algorithm: fast }).dev(agent);
    expect(calls).toBe(1);
    const slow = algo(async function mySlowAlgorithm() {});
    expect(slow.fast).toBe(false);
    expect(slow.name).toBe('mySlowAlgorithm');
    await expect(new Trainer({ ...options, algorithm: slow }).dev(agent)).rejects.toThrow(
      ValidationError,
    );
    await store.close();
  });

  it('rejects what is not a function', () => {
    expect(() => algo('run' as never)).toThrow(/algo: expected a function, got string/);
  });
});
