import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { TracerTraceToTriplet } from '@arclight/adapter';
import type { Span } from '@arclight/core';
import { withArclight } from '@arclight/instrumentation-ai-sdk';
import { emitReward, LightningTracer } from '@arclight/otel';
import { SqliteLightningStore } from '@arclight/store';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { reward } from './answer.js';
import { solve } from './calc-agent.js';
import { simulatedCalcModel } from './simulated-model.js';
import { loadTasks, type MathProblem } from './tasks.js';

/** The line the example prints. */
export interface Summary {
  rollouts: number;
  spans: number;
  /** LLM-call triplets upstream's default adapter finds over all rollouts. */
  llm_calls: number;
  /** Mean reward. */
  reward: number;
}

export interface RunOptions {
  /** SQLite file, recreated. Default: `ARCLIGHT_DB`, else `arclight.sqlite` in the example's folder. */
  dbPath?: string;
  /** An OpenAI-compatible endpoint. Default: `OPENAI_BASE_URL` + `OPENAI_API_KEY`, else the fixture server. */
  baseUrl?: string;
  apiKey?: string;
  /** Default: `OPENAI_MODEL`, else `gpt-4.1-mini` on a real endpoint (`fixture-model` offline). */
  model?: string;
  tasks?: MathProblem[];
  env?: NodeJS.ProcessEnv;
  /** Progress lines (one per rollout). */
  log?: (line: string) => void;
}

export const DEFAULT_DB = fileURLToPath(new URL('../arclight.sqlite', import.meta.url));
const WORKER_ID = 'calc-agent-worker';

/**
 * Runs every task as a rollout: enqueue → dequeue → `traceContext` → agent → `emitReward` → attempt
 * `succeeded`, with all spans in an embedded SQLite store; then counts what the default adapter sees.
 */
export async function runCalcAgent(options: RunOptions = {}): Promise<Summary> {
  const env = options.env ?? process.env;
  const tasks = options.tasks ?? loadTasks();
  const dbPath = options.dbPath ?? env.ARCLIGHT_DB ?? DEFAULT_DB;
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });

  const endpoint = await resolveEndpoint(options, env, tasks);
  const store = new SqliteLightningStore({ path: dbPath });
  const tracer = new LightningTracer({ store, activate: false });
  try {
    const provider = createOpenAICompatible({
      name: 'calc',
      baseURL: endpoint.baseUrl,
      apiKey: endpoint.apiKey,
      includeUsage: true,
    });
    const model = withArclight(provider(endpoint.model));
    for (const task of tasks) await store.enqueueRollout({ input: { ...task } });

    const rolloutIds: string[] = [];
    const rewards: number[] = [];
    for (;;) {
      const rollout = await store.dequeueRollout({ worker_id: WORKER_ID });
      if (!rollout) break;
      const task = rollout.input as MathProblem;
      const ids = { rolloutId: rollout.rollout_id, attemptId: rollout.attempt.attempt_id };
      let status: 'succeeded' | 'failed' = 'succeeded';
      const value = await tracer.traceContext(ids, async () => {
        let answer: string;
        try {
          answer = await solve(task, model, tracer);
        } catch (error) {
          status = 'failed';
          answer = 'None';
          options.log?.(`${task.id}: agent failed: ${String(error)}`);
        }
        const r = reward(answer, task.result);
        emitReward(r);
        options.log?.(`${task.id}: answer ${answer}, ground truth ${task.result}, reward ${r}`);
        return r;
      });
      await store.updateAttempt(ids.rolloutId, ids.attemptId, { status });
      rolloutIds.push(ids.rolloutId);
      rewards.push(value);
    }
    await tracer.flush();
    return await summarize(store, rolloutIds, rewards);
  } finally {
    await tracer.shutdown();
    await store.close();
    await endpoint.close();
  }
}

async function summarize(
  store: SqliteLightningStore,
  rolloutIds: readonly string[],
  rewards: readonly number[],
): Promise<Summary> {
  const adapter = new TracerTraceToTriplet();
  let spans = 0;
  let llmCalls = 0;
  for (const rolloutId of rolloutIds) {
    const items: Span[] = (await store.querySpans(rolloutId)).items;
    spans += items.length;
    if (items.length > 0) llmCalls += adapter.adapt(items).length;
  }
  const total = rewards.reduce((sum, r) => sum + r, 0);
  return {
    rollouts: rolloutIds.length,
    spans,
    llm_calls: llmCalls,
    reward: rewards.length === 0 ? 0 : total / rewards.length,
  };
}

interface Endpoint {
  baseUrl: string;
  apiKey: string;
  model: string;
  close(): Promise<void>;
}

/** The given endpoint, else `OPENAI_BASE_URL`/`OPENAI_API_KEY`, else an in-process fixture server. */
async function resolveEndpoint(
  options: RunOptions,
  env: NodeJS.ProcessEnv,
  tasks: readonly MathProblem[],
): Promise<Endpoint> {
  const baseUrl = options.baseUrl ?? (env.OPENAI_API_KEY ? env.OPENAI_BASE_URL : undefined);
  if (baseUrl) {
    return {
      baseUrl,
      apiKey: options.apiKey ?? env.OPENAI_API_KEY ?? 'unused',
      model: options.model ?? env.OPENAI_MODEL ?? 'gpt-4.1-mini',
      close: async () => {},
    };
  }
  const llm: FixtureLlm = await startFixtureLlm({
    recordings: false,
    responders: [simulatedCalcModel(tasks)],
  });
  return {
    baseUrl: llm.baseUrl,
    apiKey: 'unused',
    model: options.model ?? 'fixture-model',
    close: () => llm.close(),
  };
}
