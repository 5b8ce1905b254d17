import {
  AGL_ANNOTATION,
  type AttemptedRollout,
  createSpan,
  LLM,
  PromptTemplate,
  RewardAttributes,
  rewardAttributeKey,
} from '@arclight/core';
import type { LightningStoreClient } from '../../src/index.js';

/** What the worker did, for assertions. */
export interface WorkedRollout {
  rollout_id: string;
  k: number;
  reward: number;
}

/** The reward the worker emits for input `k` (distinct per rollout; 1.0 for k = 3). */
export const rewardFor = (k: number): number => (k + 1) * 0.25;

/**
 * A TypeScript runner: dequeues rollouts, reads their resources, writes an LLM-call span through
 * `POST /v1/agl/spans` and a reward span (encoded exactly as upstream's `emit_reward`) through OTLP, and
 * marks the attempt succeeded. Stops after `count` rollouts or when `stop()` turns true.
 */
export async function runTsWorker(
  client: LightningStoreClient,
  count: number,
  stop: () => boolean,
  workerId = 'ts-worker',
): Promise<WorkedRollout[]> {
  const done: WorkedRollout[] = [];
  await client.updateWorker(workerId, { heartbeat_stats: { runtime: 'node', pid: process.pid } });
  while (done.length < count && !stop()) {
    const rollout = await client.dequeueRollout({ worker_id: workerId });
    if (!rollout) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    done.push(await work(client, rollout));
  }
  return done;
}

async function work(
  client: LightningStoreClient,
  rollout: AttemptedRollout,
): Promise<WorkedRollout> {
  const rid = rollout.rollout_id;
  const aid = rollout.attempt.attempt_id;
  const input = rollout.input as { question: string; k: number };
  const update = rollout.resources_id ? await client.getResourcesById(rollout.resources_id) : null;
  const llm = update?.resources.main_llm;
  const prompt = update?.resources.prompt;
  if (!(llm instanceof LLM) || !(prompt instanceof PromptTemplate)) {
    throw new Error(
      `rollout ${rid}: expected main_llm (LLM) and prompt (PromptTemplate) resources`,
    );
  }

  const step = createSpan({
    rollout_id: rid,
    attempt_id: aid,
    sequence_id: await client.getNextSpanSequenceId(rid, aid),
    name: 'openai.chat.completion',
    attributes: {
      'gen_ai.prompt': prompt.format({ question: input.question }),
      'gen_ai.request.model': llm.model,
      'llm.base_url': llm.getBaseUrl(rid, aid),
    },
  });
  await client.addSpan(step);

  const reward = rewardFor(input.k);
  const rewardSpan = createSpan({
    rollout_id: rid,
    attempt_id: aid,
    sequence_id: await client.getNextSpanSequenceId(rid, aid),
    name: AGL_ANNOTATION,
    parent_id: step.span_id,
    trace_id: step.trace_id,
    attributes: {
      [rewardAttributeKey(0, RewardAttributes.REWARD_NAME)]: 'primary',
      [rewardAttributeKey(0, RewardAttributes.REWARD_VALUE)]: reward,
    },
  });
  await client.addManySpans([rewardSpan]);
  await client.updateAttempt(rid, aid, { status: 'succeeded' });
  return { rollout_id: rid, k: input.k, reward };
}
