import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TracerTraceToTriplet } from '@arclight/adapter';
import { instrumentOpenAI } from '@arclight/instrumentation-openai';
import { emitReward, LightningTracer } from '@arclight/otel';
import { SqliteLightningStore } from '@arclight/store';
import { startFixtureLlm } from '@arclight/test-fixtures';
import OpenAI from 'openai';
import { research } from './agent.js';
import { simulatedResearchModel } from './simulated-model.js';
import { type ResearchTask, reward, TASKS } from './tasks.js';

/** The line the example prints. */
export interface Summary {
  rollouts: number;
  spans: number;
  /** LLM-call triplets the default adapter finds over all rollouts. */
  llm_calls: number;
  tool_calls: number;
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
  tasks?: readonly ResearchTask[];
  /** Rollouts per question, each with its own sampling seed (default 2: a GRPO group / a DPO pair). */
  samples?: number;
  env?: NodeJS.ProcessEnv;
  /** Progress lines (one per rollout). */
  log?: (line: string) => void;
}

export const DEFAULT_DB = fileURLToPath(new URL('../arclight.sqlite', import.meta.url));

/**
 * Runs every question `samples` times, each sample a rollout of its own (`metadata.task_id` = the question's id,
 * so exports group the samples): dequeue → `traceContext` → agent → `emitReward` → attempt `succeeded`. The
 * OpenAI client is instrumented to record token ids (`requestTokenIds: 'auto'`: every endpoint but OpenAI's)
 * and logprobs (`requestLogprobs`, which ART trains on).
 */
export async function runResearchAgent(options: RunOptions = {}): Promise<Summary> {
  const env = options.env ?? process.env;
  const tasks = options.tasks ?? TASKS;
  const samples = options.samples ?? 2;
  if (!Number.isInteger(samples) || samples < 1) {
    throw new RangeError(`samples: expected a positive integer, got ${samples}`);
  }
  const dbPath = options.dbPath ?? env.ARCLIGHT_DB ?? DEFAULT_DB;
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });

  const baseUrl = options.baseUrl ?? (env.OPENAI_API_KEY ? env.OPENAI_BASE_URL : undefined);
  const fixture = baseUrl
    ? undefined
    : await startFixtureLlm({ recordings: false, responders: [simulatedResearchModel(tasks)] });
  const model = options.model ?? (baseUrl ? (env.OPENAI_MODEL ?? 'gpt-4.1-mini') : 'fixture-model');
  const store = new SqliteLightningStore({ path: dbPath });
  const tracer = new LightningTracer({ store });
  const uninstrument = instrumentOpenAI(OpenAI, {
    tracerProvider: tracer.tracerProvider,
    requestTokenIds: 'auto',
    requestLogprobs: true,
  });
  const client = new OpenAI({
    baseURL: baseUrl ?? fixture!.baseUrl,
    apiKey: options.apiKey ?? env.OPENAI_API_KEY ?? 'unused',
    maxRetries: baseUrl ? 2 : 0,
  });
  try {
    for (const task of tasks) {
      for (let sample = 0; sample < samples; sample++) {
        await store.enqueueRollout({
          input: { ...task },
          mode: 'train',
          metadata: { task_id: task.id, sample },
        });
      }
    }
    const rolloutIds: string[] = [];
    const rewards: number[] = [];
    let toolCalls = 0;
    for (let next = await store.dequeueRollout(); next; next = await store.dequeueRollout()) {
      const task = next.input as unknown as ResearchTask;
      const sample = Number(next.metadata?.sample ?? 0);
      const ids = { rolloutId: next.rollout_id, attemptId: next.attempt.attempt_id };
      let status: 'succeeded' | 'failed' = 'succeeded';
      const value = await tracer.traceContext(ids, async () => {
        let answer = '';
        try {
          const result = await research(client, model, task, sample);
          answer = result.answer;
          toolCalls += result.tool_calls;
        } catch (error) {
          status = 'failed';
          options.log?.(`${task.id}#${sample}: agent failed: ${String(error)}`);
        }
        const r = reward(answer, task.answer);
        emitReward(r);
        options.log?.(`${task.id}#${sample}: answer ${JSON.stringify(answer)}, reward ${r}`);
        return r;
      });
      await store.updateAttempt(ids.rolloutId, ids.attemptId, { status });
      rolloutIds.push(ids.rolloutId);
      rewards.push(value);
    }
    await tracer.flush();
    const adapter = new TracerTraceToTriplet();
    let spans = 0;
    let llmCalls = 0;
    for (const rolloutId of rolloutIds) {
      const items = (await store.querySpans(rolloutId)).items;
      spans += items.length;
      if (items.length > 0) llmCalls += adapter.adapt(items).length;
    }
    return {
      rollouts: rolloutIds.length,
      spans,
      llm_calls: llmCalls,
      tool_calls: toolCalls,
      reward: rewards.length === 0 ? 0 : rewards.reduce((a, b) => a + b, 0) / rewards.length,
    };
  } finally {
    uninstrument();
    await tracer.shutdown();
    await store.close();
    await fixture?.close();
  }
}
