import { fileURLToPath } from 'node:url';
import { LightningStoreClient } from '@arclight/client';
import { emitReward, LightningTracer } from '@arclight/otel';
import { type ChatMessage, type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import {
  type AglStore,
  hasPython,
  PythonProcess,
  requirePython,
  SKIP_PYTHON,
  startAglStore,
  summaryOf,
} from '@arclight/test-fixtures/python';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instrumentOpenAI, type Uninstrument } from '../../src/index.js';

/**
 * End to end with upstream agentlightning 0.3.0 (the repo's venv, `scripts/python-env.sh`): the openai SDK,
 * instrumented by this package, calls the fixture LLM inside two concurrent rollouts of upstream's Python
 * `agl store`; Arclight's tracer exports the spans there over OTLP. A Python script then reads them back with
 * upstream's `LightningStoreClient.query_spans` and runs upstream's `TracerTraceToTriplet`, `TraceToMessages`
 * and `find_final_reward`. Without the venv the test fails, unless ARCLIGHT_SKIP_PYTHON=1 is set (and CI is
 * not).
 */
const AGL_STORE_ADAPT = fileURLToPath(new URL('python/agl_store_adapt.py', import.meta.url));

interface Triplet {
  prompt: { token_ids: number[] };
  response: { token_ids: number[] };
  reward: number | null;
  metadata: { response_id: string };
}
interface RolloutReadBack {
  status: string | null;
  attempt_status: string | null;
  span_names: string[];
  span_ids: Array<[string, string]>;
  triplets: Triplet[];
  messages: { messages: Record<string, unknown>[]; tools: Record<string, unknown>[] | null }[];
  final_reward: number | null;
  reward_values: Array<number | null>;
}

/** What the fixture server returned for one chat call, as the SDK handed it to the agent. */
interface CallRecord {
  id: string;
  prompt_token_ids: number[];
  token_ids: number[];
  /** The prompt ids the fixture's tokenizer gives for the messages the agent sent. */
  expected_prompt_ids: number[];
}

interface AgentRun {
  rolloutId: string;
  attemptId: string;
  reward: number;
  city: string;
  weather: string;
  calls: CallRecord[];
  toolCall: { id: string; type: 'function'; function: { name: string; arguments: string } };
  answer: string;
}

const WEATHER_TOOL = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

type WithTokenIds = { prompt_token_ids?: number[] };
type ChoiceTokenIds = { token_ids?: number[] };

/** One agent: a tool call (plain request), the tool's result, then a streamed answer; then a reward. */
async function runAgent(
  sdk: OpenAI,
  llm: FixtureLlm,
  run: Omit<AgentRun, 'calls' | 'toolCall' | 'answer'>,
): Promise<AgentRun> {
  const calls: CallRecord[] = [];
  const user = { role: 'user' as const, content: `Weather in ${run.city}?` };
  const first = await sdk.chat.completions.create({
    model: 'fixture-tools',
    messages: [user],
    tools: [WEATHER_TOOL],
  });
  calls.push({
    id: first.id,
    prompt_token_ids: (first as WithTokenIds).prompt_token_ids ?? [],
    token_ids: (first.choices[0] as ChoiceTokenIds).token_ids ?? [],
    expected_prompt_ids: llm.tokenizer.encodeChat([user], [WEATHER_TOOL]),
  });
  const call = first.choices[0]!.message.tool_calls![0]!;
  if (call.type !== 'function') throw new Error('expected a function call');
  const toolCall = {
    id: call.id,
    type: 'function' as const,
    function: { name: call.function.name, arguments: call.function.arguments },
  };
  const followUp = [
    user,
    { role: 'assistant' as const, content: null, tool_calls: [toolCall] },
    { role: 'tool' as const, tool_call_id: call.id, content: run.weather },
  ];
  const stream = await sdk.chat.completions.create({
    model: 'fixture-tools',
    messages: followUp,
    tools: [WEATHER_TOOL],
    stream: true,
  });
  const streamed: CallRecord = {
    id: '',
    prompt_token_ids: [],
    token_ids: [],
    expected_prompt_ids: llm.tokenizer.encodeChat(followUp as ChatMessage[], [WEATHER_TOOL]),
  };
  let answer = '';
  for await (const chunk of stream) {
    streamed.id = chunk.id;
    streamed.prompt_token_ids.push(...((chunk as WithTokenIds).prompt_token_ids ?? []));
    const choice = chunk.choices[0];
    streamed.token_ids.push(...((choice as ChoiceTokenIds | undefined)?.token_ids ?? []));
    answer += choice?.delta.content ?? '';
  }
  calls.push(streamed);
  emitReward(run.reward);
  return { ...run, calls, toolCall, answer };
}

describe.skipIf(SKIP_PYTHON)(
  "upstream's Python agl store reads back OpenAI spans exported over OTLP",
  () => {
    let store: AglStore | undefined;
    let reader: PythonProcess | undefined;
    let url = '';
    let llm: FixtureLlm | undefined;
    let client: LightningStoreClient | undefined;
    let tracer: LightningTracer | undefined;
    let uninstrument: Uninstrument | undefined;

    beforeAll(async () => {
      // Without the venv the test below fails (requirePython); there is no store to start.
      if (!hasPython()) return;
      store = await startAglStore();
      url = store.url;
      // A small delay per SSE event makes the two rollouts' streams interleave.
      llm = await startFixtureLlm({ recordings: false, chunkDelayMs: 2 });
    }, 300_000);

    afterAll(async () => {
      uninstrument?.();
      await tracer?.shutdown();
      await client?.close();
      await llm?.close();
      await reader?.stop();
      await store?.stop();
    }, 60_000);

    it('builds triplets (token ids, rewards), messages and final rewards from two concurrent rollouts', async () => {
      requirePython();
      client = new LightningStoreClient(url);
      tracer = new LightningTracer({ store: client, logger: null });
      uninstrument = instrumentOpenAI(OpenAI, {
        tracerProvider: tracer.tracerProvider,
        requestTokenIds: true,
      });
      const fixture = llm!;
      const sdk = new OpenAI({ baseURL: fixture.baseUrl, apiKey: 'x', maxRetries: 0 });

      for (const input of ['task lima', 'task oslo']) await client.enqueueRollout({ input });
      const a = await client.dequeueRollout();
      const b = await client.dequeueRollout();
      if (!a || !b) throw new Error('the Python store handed out no rollout');

      const rollout = async (
        attempted: typeof a,
        city: string,
        weather: string,
        reward: number,
      ): Promise<AgentRun> => {
        const ids = { rolloutId: attempted.rollout_id, attemptId: attempted.attempt.attempt_id };
        const run = await tracer!.traceContext(ids, () =>
          runAgent(sdk, fixture, { ...ids, city, weather, reward }),
        );
        expect(await tracer!.flush()).toBe(true);
        await client!.updateAttempt(ids.rolloutId, ids.attemptId, { status: 'succeeded' });
        return run;
      };
      const runs = await Promise.all([
        rollout(a, 'Lima', 'sunny', 0.75),
        rollout(b, 'Oslo', 'snowy', 0.25),
      ]);
      expect(tracer.stats).toMatchObject({ dropped: 0 });
      expect(fixture.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(4);

      reader = PythonProcess.start([AGL_STORE_ADAPT, url, ...runs.map((r) => r.rolloutId)]);
      const result = summaryOf<Record<string, RolloutReadBack>>(await reader.waitForExit(), {
        marker: 'RESULT',
      });

      const tools = [{ type: 'function', function: WEATHER_TOOL.function }];
      for (const run of runs) {
        const back = result[run.rolloutId]!;
        expect(back.status).toBe('succeeded');
        expect(back.attempt_status).toBe('succeeded');
        // Every span is attributed to this rollout's attempt: nothing leaked from the concurrent one.
        expect(back.span_ids).toEqual([[run.rolloutId, run.attemptId]]);
        expect(back.span_names.filter((n) => n === 'openai.chat.completion')).toHaveLength(2);

        // One triplet per chat call, with the token ids the fixture server returned.
        expect(back.triplets).toHaveLength(run.calls.length);
        back.triplets.forEach((triplet, i) => {
          const call = run.calls[i]!;
          expect(call.prompt_token_ids).toEqual(call.expected_prompt_ids);
          expect(call.token_ids.length).toBeGreaterThan(0);
          expect(triplet.prompt.token_ids).toEqual(call.prompt_token_ids);
          expect(triplet.response.token_ids).toEqual(call.token_ids);
          expect(triplet.metadata.response_id).toBe(call.id);
        });
        expect(back.triplets.map((t) => t.reward)).toEqual([null, run.reward]);
        expect(back.final_reward).toBe(run.reward);
        expect(back.reward_values).toEqual([run.reward]);

        // The messages rebuild the tool call round trip.
        const user = { role: 'user', content: `Weather in ${run.city}?` };
        const assistant = { role: 'assistant', content: null, tool_calls: [run.toolCall] };
        expect(run.answer).toContain(run.weather);
        expect(back.messages).toEqual([
          { messages: [user, assistant], tools },
          {
            messages: [
              user,
              assistant,
              { role: 'tool', content: run.weather, tool_call_id: run.toolCall.id },
              { role: 'assistant', content: run.answer },
            ],
            tools,
          },
        ]);
      }
    }, 300_000); // starting `agl store` and importing agentlightning take tens of seconds
  },
);
