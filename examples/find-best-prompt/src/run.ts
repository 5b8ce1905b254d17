import { LLM } from '@arclight/core';
import { instrumentOpenAI, type Uninstrument } from '@arclight/instrumentation-openai';
import { LightningTracer } from '@arclight/otel';
import { InMemoryLightningStore, type LightningStore } from '@arclight/store';
import { startFixtureLlm } from '@arclight/test-fixtures';
import { Trainer } from '@arclight/trainer';
import OpenAI from 'openai';
import { answerAgent } from './agent.js';
import { findBestPrompt, type PromptResult } from './algorithm.js';
import { SIMULATED_MODEL, simulatedModels } from './simulated-model.js';
import { CANDIDATE_PROMPTS, type QuestionTask, TASKS } from './tasks.js';

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Runners (default 2). */
  nRunners?: number;
  candidates?: readonly string[];
  tasks?: readonly QuestionTask[];
  log?: (line: string) => void;
  handleSignals?: boolean;
}

export interface Summary {
  simulated: boolean;
  model: string;
  prompts: PromptResult[];
  best: PromptResult;
  rollouts: number;
}

/**
 * Runs the custom algorithm with a trainer: the candidates are tried one after the other by `nRunners`
 * in-process runners. Offline, the fixture LLM server plays an assistant and a judge (simulated models); with
 * OPENAI_BASE_URL / OPENAI_API_KEY the model OPENAI_MODEL (default gpt-4.1-mini) answers and judges.
 */
export async function runFindBestPrompt(options: RunOptions = {}): Promise<Summary> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => console.log(line));
  const real = Boolean(env.OPENAI_BASE_URL || env.OPENAI_API_KEY);
  const fixture = real
    ? null
    : await startFixtureLlm({ recordings: false, responders: simulatedModels() });
  const endpoint = fixture?.baseUrl ?? env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
  const model = env.OPENAI_MODEL || 'gpt-4.1-mini';
  const mainLlm = new LLM({ endpoint, model: fixture ? SIMULATED_MODEL : model });
  log(
    fixture
      ? `LLM: SIMULATED (offline fixture server ${fixture.baseUrl}): a scripted assistant and judge, not a language model`
      : `LLM: ${model} at ${endpoint}`,
  );

  const tasks = options.tasks ?? TASKS;
  const results: PromptResult[] = [];
  let best: PromptResult | null = null;
  let uninstrument: Uninstrument | undefined;
  const store = new InMemoryLightningStore();
  const trainer = new Trainer<QuestionTask>({
    nRunners: options.nRunners ?? 2,
    store,
    algorithm: findBestPrompt(options.candidates ?? CANDIDATE_PROMPTS, {
      log,
      onResult: (r) => results.push(r),
      onBest: (b) => {
        best = b;
      },
    }),
    initialResources: { main_llm: mainLlm },
    tracer: (tracerStore: LightningStore) => {
      const tracer = new LightningTracer({ store: tracerStore });
      uninstrument?.();
      uninstrument = instrumentOpenAI(OpenAI, { tracerProvider: tracer.tracerProvider });
      return tracer;
    },
    runner: { pollInterval: 0.05, intervalJitter: 0.01 },
    handleSignals: options.handleSignals ?? true,
  });
  try {
    await trainer.fit(answerAgent, { trainDataset: tasks });
  } finally {
    uninstrument?.();
    await fixture?.close();
  }
  const rollouts = (await store.queryRollouts({})).total;
  await store.close();
  if (!best) throw new Error('the algorithm stopped before trying every prompt');
  return { simulated: fixture !== null, model: mainLlm.model, prompts: results, best, rollouts };
}
