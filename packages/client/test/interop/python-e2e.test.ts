import { fileURLToPath } from 'node:url';
import { createLightningStoreServer } from '@arclight/server';
import { InMemoryLightningStore } from '@arclight/store';
import {
  freePort,
  PYTHON_TIMEOUT_MS,
  PythonProcess,
  SKIP_PYTHON,
  summaryOf,
} from '@arclight/test-fixtures/python';
import { describe, expect, it } from 'vitest';
import { LightningStoreClient } from '../../src/index.js';
import { TEST_CLIENT_OPTIONS } from '../support/served-store.js';
import { rewardFor, runTsWorker, type WorkedRollout } from '../support/ts-worker.js';

/**
 * End to end: a Python algorithm (upstream agentlightning 0.3.0) enqueues rollouts with resources, a
 * TypeScript worker (LightningStoreClient) runs them and reports rewards encoded as upstream's emit_reward,
 * and the algorithm reads the rewards back with upstream's find_final_reward / get_reward_value.
 */
const ROLLOUTS = 4;
const ALGORITHM = fileURLToPath(new URL('python/e2e_algorithm.py', import.meta.url));

interface AlgorithmSummary {
  resources_id: string;
  rollouts: Array<{
    rollout_id: string;
    k: number;
    status: string;
    worker_id: string | null;
    final_reward: number | null;
    last_reward_span_value: number | null;
    span_names: string[];
    span_sequence_ids: number[];
    prompt: string | null;
  }>;
}

/** Runs the worker until the algorithm exits (or all rollouts are done) and checks both sides agree. */
async function algorithmWithTsWorker(algorithm: PythonProcess): Promise<void> {
  const [, url] = await algorithm.waitForOutput(/READY (\S+)/);
  const client = new LightningStoreClient(url!, TEST_CLIENT_OPTIONS);
  let worked: WorkedRollout[];
  try {
    worked = await runTsWorker(client, ROLLOUTS, () => !algorithm.running);
  } finally {
    await client.close();
  }
  const summary = summaryOf<AlgorithmSummary>(await algorithm.waitForExit());

  expect(worked.map((w) => w.k).sort()).toEqual([0, 1, 2, 3]);
  expect(summary.rollouts).toHaveLength(ROLLOUTS);
  for (const rollout of summary.rollouts) {
    expect(rollout.status).toBe('succeeded');
    expect(rollout.worker_id).toBe('ts-worker');
    expect(rollout.final_reward).toBe(rewardFor(rollout.k));
    expect(rollout.last_reward_span_value).toBe(rewardFor(rollout.k));
    expect(rollout.span_names).toEqual(['openai.chat.completion', 'agentlightning.annotation']);
    expect(rollout.span_sequence_ids).toEqual([1, 2]);
    expect(rollout.prompt).toBe(`Q: What is ${rollout.k}+${rollout.k}? A:`);
  }
}

describe.skipIf(SKIP_PYTHON)('Python algorithm ↔ TypeScript worker', () => {
  it(
    'Python algorithm on @arclight/server drives a TypeScript worker',
    async () => {
      const store = new InMemoryLightningStore();
      const server = createLightningStoreServer(store, { host: '127.0.0.1', port: 0 });
      const url = await server.listen();
      const algorithm = PythonProcess.start([
        ALGORITHM,
        '--url',
        url,
        '--rollouts',
        String(ROLLOUTS),
      ]);
      try {
        await algorithmWithTsWorker(algorithm);
        const stats = await store.statistics();
        expect(stats.total_rollouts).toBe(ROLLOUTS);
        expect(stats.total_spans).toBe(2 * ROLLOUTS);
      } finally {
        await algorithm.stop();
        await server.close();
        await store.close();
      }
    },
    PYTHON_TIMEOUT_MS,
  );

  it(
    "Python algorithm on upstream's own store drives a TypeScript worker",
    async () => {
      const port = await freePort();
      const algorithm = PythonProcess.start([
        ALGORITHM,
        '--serve',
        String(port),
        '--rollouts',
        String(ROLLOUTS),
      ]);
      try {
        await algorithmWithTsWorker(algorithm);
      } finally {
        await algorithm.stop();
      }
    },
    PYTHON_TIMEOUT_MS,
  );
});
