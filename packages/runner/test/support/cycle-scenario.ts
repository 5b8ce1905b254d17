import { LightningStoreClient, type LightningStoreClientOptions } from '@arclight/client';
import { PromptTemplate, type Rollout } from '@arclight/core';
import { LightningTracer } from '@arclight/otel';
import type { LightningStore } from '@arclight/store';
import { Runner, rollout } from '../../src/index.js';

/** HTTP requests a client made, by `METHOD /path` (ids left in). */
export type RequestCounts = Record<string, number>;

/** A `LightningStoreClient` that counts its requests. */
export function countingClient(
  url: string,
  options: LightningStoreClientOptions,
): { client: LightningStoreClient; counts: RequestCounts } {
  const counts: RequestCounts = {};
  const countingFetch: typeof fetch = (input, init) => {
    const path = new URL(String(input)).pathname.replace(/\/(ro|at)-[0-9a-z]+/g, '/{id}');
    const key = `${init?.method ?? 'GET'} ${path}`;
    counts[key] = (counts[key] ?? 0) + 1;
    return fetch(input, init);
  };
  const client = new LightningStoreClient(url, {
    retryDelays: [0.05],
    healthRetryDelays: [0.05],
    ...options,
    fetch: countingFetch,
  });
  return { client, counts };
}

interface Task {
  k: number;
  fail?: boolean;
}

export const SCENARIO_ROLLOUTS = 4;

/**
 * Four queued rollouts run by one runner (`maxRollouts` 4) over `runnerStore`, set up through `setup`:
 * k=0 with the first resources by id; k=1 whose agent throws; k=2 with an unknown resources id (fails before
 * the agent); k=3 enqueued without resources id after a second resources update. Resolves with the prompts the
 * agent saw, by k.
 */
export async function runScenario(
  setup: LightningStore,
  runnerStore: LightningStore,
): Promise<Record<number, string>> {
  const first = await setup.addResources({
    prompt: new PromptTemplate({ template: 'first {k}', engine: 'f-string' }),
  });
  await setup.enqueueRollout({ input: { k: 0 }, resources_id: first.resources_id });
  await setup.enqueueRollout({ input: { k: 1, fail: true }, resources_id: first.resources_id });
  await setup.enqueueRollout({ input: { k: 2 }, resources_id: 'rs-missing' });
  await setup.addResources({
    prompt: new PromptTemplate({ template: 'second {k}', engine: 'f-string' }),
  });
  await setup.enqueueRollout({ input: { k: 3 } });

  const seen: Record<number, string> = {};
  const agent = rollout<Task>(async (task, { promptTemplate }) => {
    seen[task.k] = promptTemplate.format({ k: task.k });
    if (task.fail) throw new TypeError(`task ${task.k} fails`);
  });
  const tracer = new LightningTracer({
    store: runnerStore,
    activate: false,
    scheduledDelayMillis: 0,
    logger: null,
  });
  const runner = new Runner<Task>({
    agent,
    store: runnerStore,
    tracer,
    workerId: 'cycle-worker',
    maxRollouts: SCENARIO_ROLLOUTS,
    pollInterval: 0.02,
    intervalJitter: 0,
    heartbeatInterval: 0,
    logger: null,
  });
  await runner.iter();
  await runner.close();
  await tracer.shutdown();
  return seen;
}

/**
 * What the store holds after a scenario, without ids and clock values: per rollout (by k) its status and
 * attempts (sequence id, status, worker, error type and message); the worker's status and which of its
 * timestamps are set; and whether, in dequeue order, every attempt ended before the next one started.
 */
export async function storeOutcome(store: LightningStore): Promise<unknown> {
  const rollouts = (await store.queryRollouts({})).items as Rollout[];
  const byK: Record<string, unknown> = {};
  const attempts: Array<{ start: number; end: number | null }> = [];
  for (const r of rollouts) {
    const k = (r.input as Task).k;
    const list = (await store.queryAttempts(r.rollout_id)).items;
    byK[k] = {
      status: r.status,
      attempts: list.map((a) => {
        attempts.push({ start: a.start_time, end: a.end_time ?? null });
        const error = (a.metadata as { error?: { type?: string; message?: string } } | null)?.error;
        return {
          sequence_id: a.sequence_id,
          status: a.status,
          worker_id: a.worker_id,
          ended: a.end_time != null && a.end_time >= a.start_time,
          error: error
            ? { type: error.type, message: error.message?.replace(/ro-[0-9a-z]+/g, 'ro-…') }
            : null,
        };
      }),
    };
  }
  attempts.sort((a, b) => a.start - b.start);
  const sequential = attempts.every(
    (a, i) => i === 0 || (attempts[i - 1]!.end !== null && attempts[i - 1]!.end! <= a.start),
  );
  const worker = await store.getWorkerById('cycle-worker');
  return {
    rollouts: byK,
    sequential,
    worker: worker && {
      status: worker.status,
      current_rollout_id: worker.current_rollout_id ?? null,
      current_attempt_id: worker.current_attempt_id ?? null,
      dequeued: worker.last_dequeue_time != null,
      busy: worker.last_busy_time != null,
      idle: worker.last_idle_time != null,
    },
  };
}
