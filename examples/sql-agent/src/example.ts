import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { TracerTraceToTriplet } from '@arclight/adapter';
import { ArclightCallbackHandler } from '@arclight/instrumentation-langchain';
import { instrumentOpenAI } from '@arclight/instrumentation-openai';
import { emitReward, LightningTracer } from '@arclight/otel';
import { SqliteLightningStore } from '@arclight/store';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { ChatOpenAI } from '@langchain/openai';
import OpenAI from 'openai';
import { buildSqlAgent } from './agent.js';
import { SqlDatabase, sameResultSet } from './database.js';
import { scriptedSqlModel } from './scripted-model.js';
import { DEFAULT_DB_PATH, EXAMPLE_DIR, loadTasks, type SqlTask } from './tasks.js';

/** Only the calls of these nodes are trained (upstream's SQL example trains with `agent_match`). */
export const AGENT_MATCH = /write_query|rewrite_query/;

export interface ExampleOptions {
  /** Store file, recreated per run. Default `ARCLIGHT_DB` or `examples/sql-agent/arclight.sqlite`. */
  storePath?: string;
  /** Chinook database. Default `CHINOOK_DB` or `<repo>/../shared/fixtures/chinook.db`. */
  dbPath?: string;
  /**
   * OpenAI-compatible endpoint. Default `OPENAI_BASE_URL` (with `OPENAI_API_KEY`), else an in-process fixture
   * server playing the model (`scriptedSqlModel`).
   */
  baseUrl?: string;
  /** A running fixture server to use instead (offline mode; left running). */
  fixture?: FixtureLlm;
  apiKey?: string;
  /** Default `OPENAI_MODEL` or `gpt-4.1-mini` against a real endpoint; `fixture-model` offline. */
  model?: string;
  tasks?: SqlTask[];
  /** Progress lines (default: stderr). */
  log?: (line: string) => void;
}

export interface Summary {
  rollouts: number;
  spans: number;
  llm_calls: number;
  reward: number;
}

export interface ExampleResult {
  summary: Summary;
  /** LLM-call triplets of every node (default adapter without agentMatch). */
  allLlmCalls: number;
  rollouts: { rolloutId: string; taskId: string; query: string; reward: number }[];
  storePath: string;
}

/** Whether the example talks to a real endpoint (OPENAI_BASE_URL + OPENAI_API_KEY). */
function realEndpoint(options: ExampleOptions): { baseUrl: string; apiKey: string } | undefined {
  if (options.baseUrl) return { baseUrl: options.baseUrl, apiKey: options.apiKey ?? 'unused' };
  const { OPENAI_BASE_URL, OPENAI_API_KEY } = process.env;
  return OPENAI_BASE_URL && OPENAI_API_KEY
    ? { baseUrl: OPENAI_BASE_URL, apiKey: OPENAI_API_KEY }
    : undefined;
}

/** 1 when the final query returns the gold query's result set (as multisets of rows), else 0. */
export function evaluateQuery(db: SqlDatabase, query: string, gold: string): number {
  const predicted = db.run(query);
  const expected = db.run(gold);
  if (!expected.ok) throw new Error(`gold query failed: ${expected.error}`);
  return predicted.ok && sameResultSet(predicted.rows, expected.rows) ? 1 : 0;
}

export async function runExample(options: ExampleOptions = {}): Promise<ExampleResult> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const storePath =
    options.storePath ?? process.env.ARCLIGHT_DB ?? resolve(EXAMPLE_DIR, 'arclight.sqlite');
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${storePath}${suffix}`, { force: true });
  const tasks = options.tasks ?? loadTasks();
  const db = new SqlDatabase(options.dbPath ?? process.env.CHINOOK_DB ?? DEFAULT_DB_PATH);

  const endpoint = options.fixture ? undefined : realEndpoint(options);
  const ownFixture =
    endpoint || options.fixture
      ? undefined
      : await startFixtureLlm({ responders: [scriptedSqlModel()] });
  const fixture = options.fixture ?? ownFixture;
  const baseUrl = endpoint?.baseUrl ?? fixture!.baseUrl;
  const model =
    options.model ?? (endpoint ? (process.env.OPENAI_MODEL ?? 'gpt-4.1-mini') : 'fixture-model');

  const store = new SqliteLightningStore({ path: storePath });
  const tracer = new LightningTracer({ store });
  // vLLM (and the fixture) return token ids on request; OpenAI's API rejects the flag.
  const uninstrument = instrumentOpenAI(OpenAI, {
    tracerProvider: tracer.tracerProvider,
    requestTokenIds: !endpoint || process.env.ARCLIGHT_REQUEST_TOKEN_IDS === '1',
  });
  const handler = new ArclightCallbackHandler({ tracerProvider: tracer.tracerProvider });
  const agent = buildSqlAgent({
    db,
    model: new ChatOpenAI({
      model,
      apiKey: endpoint?.apiKey ?? 'unused',
      configuration: { baseURL: baseUrl },
      temperature: 0,
      maxRetries: endpoint ? 1 : 0,
    }),
  });

  const results: ExampleResult['rollouts'] = [];
  try {
    await store.enqueueManyRollouts(tasks.map((task) => ({ input: { ...task }, mode: 'train' })));
    for (let next = await store.dequeueRollout(); next; next = await store.dequeueRollout()) {
      const task = next.input as unknown as SqlTask;
      const ids = { rolloutId: next.rollout_id, attemptId: next.attempt.attempt_id };
      try {
        const { query, reward } = await tracer.traceContext(ids, async () => {
          const final = await agent.invoke(
            { question: task.question },
            { callbacks: [handler], recursionLimit: 100 },
          );
          const score = evaluateQuery(db, final.query, task.gold);
          emitReward(score);
          return { query: final.query, reward: score };
        });
        await store.updateAttempt(ids.rolloutId, ids.attemptId, { status: 'succeeded' });
        results.push({ rolloutId: ids.rolloutId, taskId: task.id, query, reward });
        log(`[${task.id}] reward=${reward} query=${query}`);
      } catch (error) {
        await store.updateAttempt(ids.rolloutId, ids.attemptId, { status: 'failed' });
        log(`[${task.id}] failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    await tracer.flush();

    const trained = new TracerTraceToTriplet({ agentMatch: AGENT_MATCH });
    const everything = new TracerTraceToTriplet();
    let spans = 0;
    let llmCalls = 0;
    let allLlmCalls = 0;
    for (const { rolloutId } of results) {
      const items = (await store.querySpans(rolloutId)).items;
      spans += items.length;
      if (items.length === 0) continue;
      llmCalls += trained.adapt(items).length;
      allLlmCalls += everything.adapt(items).length;
    }
    const rewards = results.map((r) => r.reward);
    const reward = rewards.length ? rewards.reduce((a, b) => a + b, 0) / rewards.length : 0;
    return {
      summary: { rollouts: results.length, spans, llm_calls: llmCalls, reward },
      allLlmCalls,
      rollouts: results,
      storePath,
    };
  } finally {
    uninstrument();
    await tracer.shutdown();
    await store.close();
    db.close();
    await ownFixture?.close();
  }
}
