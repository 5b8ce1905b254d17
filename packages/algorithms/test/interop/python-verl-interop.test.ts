import { fileURLToPath } from 'node:url';
import { LightningStoreClient } from '@arclight/client';
import { instrumentOpenAI } from '@arclight/instrumentation-openai';
import { emitReward, LightningTracer } from '@arclight/otel';
import { Runner, rollout } from '@arclight/runner';
import { IM_END_ID, respond, startFixtureLlm } from '@arclight/test-fixtures';
import {
  PythonProcess,
  SKIP_PYTHON,
  startAglStore,
  summaryOf,
} from '@arclight/test-fixtures/python';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startRoutingProxy } from '../support/routing-proxy.js';

const ALGORITHM = fileURLToPath(new URL('python/verl_style_algorithm.py', import.meta.url));

interface Task {
  a: number;
  b: number;
  k: number;
}

interface AlgorithmSummary {
  resources_id: string;
  rollouts: Array<{
    rollout_id: string;
    attempt_id: string;
    k: number;
    status: string;
    worker_id: string | null;
    final_reward: number | null;
    daemon_reward: number | null;
    span_names: string[];
    triplets: Array<{ prompt_ids: number[]; response_ids: number[]; reward: number | null }>;
  }>;
}

const ROLLOUTS = 4;
const TEMPLATE = 'Answer with a number only. What is {a} + {b}?';
/** The fixture's "model" gets even k right and odd k wrong, so rewards differ. */
const answerFor = (k: number) => String(k % 2 === 0 ? 2 * k : 2 * k + 1);

/**
 * A Python Agent Lightning algorithm (upstream 0.3.0, its own `agl store`) publishes a ProxyLLM and a prompt,
 * enqueues rollouts as the VERL daemon does, and reads rewards and token-id triplets with upstream's adapter;
 * TypeScript runners (Runner + LightningStoreClient + LightningTracer + @arclight/instrumentation-openai) serve the rollouts.
 */
describe.skipIf(SKIP_PYTHON)(
  "TypeScript runners serve a Python algorithm on upstream's store",
  () => {
    it('runs the rollouts with the rollout-scoped ProxyLLM and reports rewards and token ids VERL can train on', async () => {
      const store = await startAglStore({ timeoutMs: 90_000 }); // fails without the venv
      const url = store.url;
      const fixture = await startFixtureLlm({
        recordings: false,
        responders: [
          respond(/What is (\d+) \+ (\d+)\?/, (req) => {
            const k = Number(/What is (\d+) \+/.exec(req.lastUserText)![1]);
            return answerFor(k);
          }),
        ],
      });
      const proxy = await startRoutingProxy(fixture.baseUrl);
      let algorithm: PythonProcess | undefined;
      try {
        const client = new LightningStoreClient(url);
        const tracer = new LightningTracer({ store: client, logger: null });
        const uninstrument = instrumentOpenAI(OpenAI, {
          tracerProvider: tracer.tracerProvider,
          requestTokenIds: true,
        });
        const endpoints: string[] = [];
        const agent = rollout<Task>(async (task, { llm, promptTemplate }) => {
          endpoints.push(llm.endpoint);
          const openai = new OpenAI({ baseURL: llm.endpoint, apiKey: 'unused', maxRetries: 0 });
          const reply = await openai.chat.completions.create({
            model: llm.model,
            messages: [{ role: 'user', content: promptTemplate.format({ ...task }) }],
            temperature: llm.sampling_parameters.temperature as number,
          });
          emitReward(Number(reply.choices[0]?.message.content) === task.a + task.b ? 1 : 0);
        });
        const runner = new Runner<Task>({
          agent,
          store: client,
          tracer,
          workerId: 'ts-runner',
          pollInterval: 0.1,
          intervalJitter: 0,
          logger: null,
        });
        const stop = new AbortController();
        const serving = runner.iter({ signal: stop.signal });
        algorithm = PythonProcess.start([
          ALGORITHM,
          '--url',
          url,
          '--llm',
          proxy.url,
          '--rollouts',
          String(ROLLOUTS),
        ]);
        const result = await algorithm.waitForExit();
        stop.abort();
        await serving;
        await runner.close();
        await tracer.shutdown();
        uninstrument();
        await client.close();
        expect(result.code, result.stdout).toBe(0);

        const summary = summaryOf<AlgorithmSummary>(result);
        expect(summary.rollouts.map((r) => r.k).sort()).toEqual([0, 1, 2, 3]);
        for (const r of summary.rollouts) {
          const expected = r.k % 2 === 0 ? 1 : 0;
          expect(r.status).toBe('succeeded');
          expect(r.worker_id).toBe('ts-runner');
          expect(r.final_reward).toBe(expected);
          // What the VERL daemon uses: the reward matched to the LLM call's triplet by upstream's adapter.
          expect(r.daemon_reward).toBe(expected);
          expect(r.span_names).toEqual(
            expect.arrayContaining(['openai.chat.completion', 'agentlightning.annotation']),
          );
          expect(r.triplets).toHaveLength(1);
          const messages = [
            { role: 'user', content: TEMPLATE.replace('{a}', `${r.k}`).replace('{b}', `${r.k}`) },
          ];
          expect(r.triplets[0]!.prompt_ids).toEqual(
            fixture.tokenizer.encode(fixture.tokenizer.render(messages)),
          );
          expect(r.triplets[0]!.response_ids).toEqual([
            ...fixture.tokenizer.encode(answerFor(r.k)),
            IM_END_ID,
          ]);
          // The ProxyLLM reached the agent routed to this very attempt (as upstream's LLMProxy expects).
          expect(proxy.routed).toContainEqual({
            rollout_id: r.rollout_id,
            attempt_id: r.attempt_id,
            path: '/chat/completions',
          });
        }
        expect(endpoints).toHaveLength(ROLLOUTS);
        for (const endpoint of endpoints) {
          expect(endpoint).toMatch(new RegExp(`^${proxy.url}/rollout/ro-[^/]+/attempt/at-[^/]+$`));
        }
        const temperatures = fixture.requests.map(
          (r) => (r.body as { temperature?: number }).temperature,
        );
        expect(temperatures).toEqual(Array(ROLLOUTS).fill(0.7));
      } finally {
        await algorithm?.stop();
        await store.stop();
        await proxy.close();
        await fixture.close();
      }
    });
  },
);
