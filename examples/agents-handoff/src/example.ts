import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TracerTraceToTriplet } from '@arclight/adapter';
import type { Span, Triplet } from '@arclight/core';
import { instrumentOpenAIAgents } from '@arclight/instrumentation-openai-agents';
import { emitReward, LightningTracer } from '@arclight/otel';
import { SqliteLightningStore } from '@arclight/store';
import * as agents from '@openai/agents';
import OpenAI from 'openai';
import { buildTriageAgent } from './agents.js';
import { openModelEndpoint } from './endpoint.js';
import { type HandoffTask, scoreAnswer, TASKS } from './tasks.js';

export interface ExampleOptions {
  /** Environment to read OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL / ARCLIGHT_DB from. */
  env?: NodeJS.ProcessEnv;
  /** Receives the summary line (default: `console.log`). */
  print?: (line: string) => void;
}

/** The one line the example prints. */
export interface ExampleSummary {
  rollouts: number;
  spans: number;
  llm_calls: number;
  reward: number;
}

export interface RolloutReport {
  rollout_id: string;
  task: HandoffTask;
  answer: unknown;
  reward: number;
  spans: Span[];
  triplets: Triplet[];
}

export interface ExampleResult {
  summary: ExampleSummary;
  rollouts: RolloutReport[];
  /** Chat requests the fixture server answered (null against a real endpoint). */
  servedRequests: number | null;
  dbPath: string;
}

const WORKER_ID = 'agents-handoff-worker';
const DEFAULT_DB = fileURLToPath(new URL('../arclight.sqlite', import.meta.url));

/**
 * Enqueues the tasks in a SQLite LightningStore, then works through them: each rollout runs the triage
 * agent inside `tracer.traceContext`, so the Agents SDK's spans (through `LightningTracingProcessor`) land
 * in that rollout; the answer is scored and the reward emitted.
 */
export async function runExample(options: ExampleOptions = {}): Promise<ExampleResult> {
  const env = options.env ?? process.env;
  const dbPath = env.ARCLIGHT_DB || DEFAULT_DB;
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });

  const endpoint = await openModelEndpoint(env);
  const store = new SqliteLightningStore({ path: dbPath });
  const tracer = new LightningTracer({ store });
  // Replaces the SDK's default exporter (which would upload traces to OpenAI), and observes the Chat
  // Completions model so every LLM-call span records the tools its request offered (the SDK's own generation
  // span data has none).
  const instrumentation = instrumentOpenAIAgents(agents, { tracer, exclusive: true });
  try {
    const client = new OpenAI({
      baseURL: endpoint.baseURL,
      apiKey: endpoint.apiKey,
      maxRetries: 0,
    });
    const runner = new agents.Runner({
      modelProvider: new agents.OpenAIProvider({ openAIClient: client, useResponses: false }),
    });
    const modelSettings = endpoint.returnTokenIds
      ? { providerData: { return_token_ids: true } }
      : {};
    const agent = buildTriageAgent(endpoint.model, modelSettings);

    await store.enqueueManyRollouts(TASKS.map((task) => ({ input: { ...task } })));
    const finished: Array<{
      rollout_id: string;
      task: HandoffTask;
      answer: unknown;
      reward: number;
    }> = [];
    for (;;) {
      const rollout = await store.dequeueRollout({ worker_id: WORKER_ID });
      if (!rollout) break;
      const task = rollout.input as HandoffTask;
      const { attempt_id } = rollout.attempt;
      let answer: unknown;
      let reward = 0;
      try {
        await tracer.traceContext(
          { rolloutId: rollout.rollout_id, attemptId: attempt_id },
          async () => {
            try {
              const result = await runner.run(agent, task.question);
              answer = result.finalOutput;
              reward = scoreAnswer(answer, task.expected);
            } finally {
              emitReward(reward);
            }
          },
        );
        await store.updateAttempt(rollout.rollout_id, attempt_id, { status: 'succeeded' });
      } catch (error) {
        answer = `error: ${error instanceof Error ? error.message : String(error)}`;
        await store.updateAttempt(rollout.rollout_id, attempt_id, { status: 'failed' });
      }
      finished.push({ rollout_id: rollout.rollout_id, task, answer, reward });
    }
    await tracer.flush();

    const adapter = new TracerTraceToTriplet();
    const rollouts: RolloutReport[] = [];
    for (const done of finished) {
      const spans = (await store.querySpans(done.rollout_id)).items;
      rollouts.push({ ...done, spans, triplets: spans.length > 0 ? adapter.adapt(spans) : [] });
    }
    const summary: ExampleSummary = {
      rollouts: rollouts.length,
      spans: rollouts.reduce((n, r) => n + r.spans.length, 0),
      llm_calls: rollouts.reduce((n, r) => n + r.triplets.length, 0),
      reward: rollouts.length ? rollouts.reduce((n, r) => n + r.reward, 0) / rollouts.length : 0,
    };
    return { summary, rollouts, servedRequests: endpoint.servedRequests(), dbPath };
  } finally {
    instrumentation.uninstrument();
    agents.setTraceProcessors([]);
    await tracer.shutdown();
    await store.close();
    await endpoint.close();
  }
}

/** Runs the example and prints its summary line. */
export async function main(options: ExampleOptions = {}): Promise<ExampleSummary> {
  const { summary } = await runExample(options);
  (options.print ?? console.log)(JSON.stringify(summary));
  return summary;
}
