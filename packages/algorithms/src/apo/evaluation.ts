import type { TraceToMessages } from '@arclight/adapter';
import {
  findFinalReward,
  type LightningStore,
  type Logger,
  type NamedResources,
  type PromptTemplate,
  type RolloutMode,
  ValidationError,
} from '@arclight/core';
import { latestAttemptSpans, waitForFinished } from '../rollout-batch.js';
import type { RolloutResultForAPO } from './experiments.js';

/** A prompt template with its version id (`v0`, `v1`, …) and its latest score. */
export interface VersionedPrompt {
  version: string;
  template: PromptTemplate;
  score: number | null;
}

export interface EvaluationSetup {
  store: LightningStore;
  adapter: TraceToMessages;
  /** The trainer's initial resources; the evaluated template replaces `resourceName` among them. */
  baseResources: NamedResources;
  resourceName: string;
  timeout: number;
  pollInterval: number;
  signal: AbortSignal;
  logger: Logger;
}

export interface BatchEvaluation {
  results: RolloutResultForAPO[];
  /** Mean final reward of the finished rollouts (a missing reward counts 0), as upstream. */
  score: number;
}

/**
 * Upstream `evaluate_prompt_on_batch`: publishes the prompt as resources `<version>` (the initial resources with
 * the template in place of the seed), enqueues one rollout per task, waits up to `timeout`, and reads each
 * finished rollout's final reward and chat messages from its latest attempt's spans.
 */
export async function evaluatePromptOnBatch<T>(
  setup: EvaluationSetup,
  prompt: VersionedPrompt,
  tasks: readonly T[],
  mode: RolloutMode,
  prefix: string,
): Promise<BatchEvaluation> {
  const { store, logger } = setup;
  const preview = prompt.template.template.slice(0, 50).replace(/\s+/g, ' ');
  logger.info?.(
    `${prefix} Evaluating prompt "${preview}..." on ${tasks.length} tasks in ${mode} mode`,
  );
  const resources: NamedResources = {
    ...setup.baseResources,
    [setup.resourceName]: prompt.template,
  };
  const update = await store.updateResources(prompt.version, resources);
  const rollouts = await store.enqueueManyRollouts(
    tasks.map((input) => ({
      input,
      mode,
      resources_id: update.resources_id,
      metadata: { algorithm: 'apo', prompt_version: prompt.version },
    })),
  );
  const ids = rollouts.map((r) => r.rollout_id);
  const finished = await waitForFinished(store, ids, {
    timeout: setup.timeout,
    pollInterval: setup.pollInterval,
    signal: setup.signal,
  });
  if (finished.length < ids.length) {
    logger.warn(
      `${prefix} Only ${finished.length} of ${ids.length} rollouts finished within ${setup.timeout} s; ` +
        'scoring the finished ones',
    );
  }
  const results: RolloutResultForAPO[] = [];
  for (const rollout of finished) {
    const spans = await latestAttemptSpans(store, rollout.rollout_id);
    let messages: RolloutResultForAPO['messages'] = [];
    try {
      messages = setup.adapter.adapt(spans);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      logger.warn(`${prefix} Rollout ${rollout.rollout_id}: no messages (${error.message})`);
    }
    results.push({
      rollout_id: rollout.rollout_id,
      status: rollout.status,
      final_reward: findFinalReward(spans),
      spans,
      messages,
    });
  }
  const rewards = results.map((r) => r.final_reward);
  const score = rewards.reduce<number>((sum, r) => sum + (r ?? 0), 0) / Math.max(1, rewards.length);
  const statuses = new Map<string, number>();
  for (const r of results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  logger.info?.(
    `${prefix} Evaluated ${results.length} rollouts. Statuses: ` +
      `${[...statuses].map(([s, n]) => `${s}=${n}`).join(', ')}. Rewards: ` +
      `[${rewards.map((r) => (r === null ? 'None' : r)).join(', ')}], average is ${score.toFixed(3)}`,
  );
  return { results, score };
}
