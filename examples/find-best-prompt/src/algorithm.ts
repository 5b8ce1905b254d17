import { algo } from '@arclight/algorithms';
import { findFinalReward, PromptTemplate } from '@arclight/core';
import type { QuestionTask } from './tasks.js';

export interface PromptResult {
  prompt: string;
  resources_id: string;
  /** Final reward of each task's rollout, in task order. */
  rewards: number[];
  reward: number;
}

export interface FindBestPromptOptions {
  /** Seconds to wait for a prompt's rollouts. Default 60. */
  timeout?: number;
  log?: (line: string) => void;
  /** Receives every prompt's result, then the best one. */
  onResult?: (result: PromptResult) => void;
  onBest?: (best: PromptResult) => void;
}

/**
 * A custom algorithm (upstream `apo_custom_algorithm.py`'s `apo_algorithm`) written with `algo()`: for each
 * candidate prompt — 1. publish it as a resource, 2. enqueue one rollout per training task, 3. wait for the
 * runners to finish them, 4. read the final reward from each rollout's spans; then keep the best prompt.
 */
export function findBestPrompt(candidates: readonly string[], options: FindBestPromptOptions = {}) {
  const log = options.log ?? ((line: string) => console.log(line));
  const timeout = options.timeout ?? 60;
  return algo<QuestionTask>(async ({ store, trainDataset, initialResources, signal }) => {
    const tasks = trainDataset ?? [];
    if (tasks.length === 0) throw new Error('findBestPrompt: pass the questions as trainDataset');
    const results: PromptResult[] = [];
    for (const prompt of candidates) {
      // 1. The algorithm publishes the candidate (next to the LLMs of the initial resources).
      log(`[Algo] Updating prompt template to: '${prompt}'`);
      const resources = await store.addResources({
        ...initialResources,
        main_prompt: new PromptTemplate({ template: prompt, engine: 'f-string' }),
      });
      // 2. It queues the tasks; rollouts without a resources_id would also get the latest resources.
      const rollouts = await store.enqueueManyRollouts(
        tasks.map((input) => ({
          input,
          mode: 'train' as const,
          resources_id: resources.resources_id,
        })),
      );
      const ids = rollouts.map((r) => r.rollout_id);
      log(`[Algo] ${ids.length} rollouts queued for the runners.`);
      // 3. It waits for the runners.
      const deadline = Date.now() + timeout * 1000;
      let finished = await store.waitForRollouts({ rollout_ids: ids, timeout: 0 });
      while (finished.length < ids.length && Date.now() < deadline && !signal.aborted) {
        finished = await store.waitForRollouts({ rollout_ids: ids, timeout: 1 });
      }
      if (signal.aborted) return;
      if (finished.length < ids.length) {
        throw new Error(
          `only ${finished.length} of ${ids.length} rollouts finished within ${timeout} s`,
        );
      }
      // 4. It reads each rollout's spans: the LLM calls for inspection, the final reward for sorting.
      const rewards: number[] = [];
      for (const rollout of finished) {
        if (rollout.status !== 'succeeded') {
          throw new Error(`rollout ${rollout.rollout_id} did not succeed: ${rollout.status}`);
        }
        const spans = (await store.querySpans(rollout.rollout_id)).items;
        for (const span of spans.filter((s) => s.name.includes('chat.completion'))) {
          const output = String(span.attributes['gen_ai.completion.0.content'] ?? '').slice(0, 70);
          log(`[LLM] ${rollout.rollout_id} ${span.name}: ${output}`);
        }
        const reward = findFinalReward(spans);
        if (reward === null) throw new Error(`rollout ${rollout.rollout_id} has no reward span`);
        rewards.push(reward);
      }
      const reward = rewards.reduce((a, b) => a + b, 0) / rewards.length;
      log(`[Algo] Final reward of '${prompt}': ${reward.toFixed(3)} (${rewards.join(', ')})`);
      const result = { prompt, resources_id: resources.resources_id, rewards, reward };
      results.push(result);
      options.onResult?.(result);
    }
    const best = results.reduce((a, b) => (b.reward > a.reward ? b : a));
    log(`[Algo] Best prompt found: '${best.prompt}' with reward ${best.reward.toFixed(3)}`);
    options.onBest?.(best);
  });
}
