import { fileURLToPath } from 'node:url';
import { emitReward, LightningTracer } from '@arclight/otel';
import { InMemoryLightningStore } from '@arclight/store';
import { runPythonJson, SKIP_PYTHON } from '@arclight/test-fixtures/python';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instrumentOpenAI } from '../../src/index.js';
import { type Harness, harness, SDKS } from '../helpers.js';

/**
 * Cross-check with upstream agentlightning 0.3.0 (the repo's venv, `scripts/python-env.sh`): its
 * `TracerTraceToTriplet` and `TraceToMessages` adapters must read the spans this package writes the way they
 * read AgentOps' spans. Without the venv the test fails, unless ARCLIGHT_SKIP_PYTHON=1 is set (and CI is not).
 */
const ADAPT = fileURLToPath(new URL('python/adapt.py', import.meta.url));

interface Triplet {
  prompt: { token_ids: number[]; raw_content: unknown };
  response: { token_ids: number[]; raw_content: unknown; logprobs?: unknown[] };
  reward: number | null;
  metadata: { response_id: string; request: Record<string, unknown> };
}
interface Adapted {
  triplets: Triplet[];
  messages: { messages: Record<string, unknown>[]; tools: Record<string, unknown>[] | null }[];
}

const WEATHER_TOOL = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe.skipIf(SKIP_PYTHON)('upstream agentlightning 0.3.0 adapters', () => {
  let h: Harness;
  let tracer: LightningTracer;
  let uninstrument: () => void;
  beforeAll(async () => {
    h = await harness(SDKS[0]);
  });
  afterAll(async () => {
    uninstrument?.();
    await tracer?.shutdown();
    await h.close();
  });

  it('build triplets (token ids, reward) and chat messages (tool calls, tools) from our spans', async () => {
    const store = new InMemoryLightningStore();
    tracer = new LightningTracer({ store, logger: null });
    uninstrument = instrumentOpenAI(OpenAI, {
      tracerProvider: tracer.tracerProvider,
      requestTokenIds: true,
      requestLogprobs: true,
    });
    const rollout = await store.startRollout({ input: 'task' });
    const ids = { rolloutId: rollout.rollout_id, attemptId: rollout.attempt.attempt_id };
    const client = h.client();

    const [first, second] = await tracer.traceContext(ids, async () => {
      const user = { role: 'user' as const, content: 'Weather in Lima?' };
      const first = await client.chat.completions.create({
        model: 'fixture-tools',
        messages: [user],
        tools: [WEATHER_TOOL],
      });
      const call = first.choices[0]!.message.tool_calls![0]!;
      if (call.type !== 'function') throw new Error('expected a function call');
      const stream = await client.chat.completions.create({
        model: 'fixture-tools',
        messages: [
          user,
          { role: 'assistant', content: null, tool_calls: [call] },
          { role: 'tool', tool_call_id: call.id, content: 'sunny' },
        ],
        tools: [WEATHER_TOOL],
        stream: true,
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      emitReward(0.75);
      return [first, text] as const;
    });

    const spans = (await store.querySpans(ids.rolloutId)).items;
    const llm = spans.filter((s) => s.name === 'openai.chat.completion');
    const adapted = await runPythonJson<Adapted>([ADAPT], spans);

    expect(adapted.triplets).toHaveLength(2);
    adapted.triplets.forEach((triplet, i) => {
      expect(triplet.prompt.token_ids).toEqual(llm[i]!.attributes.prompt_token_ids);
      expect(triplet.response.token_ids).toEqual(llm[i]!.attributes.response_token_ids);
      expect(triplet.response.token_ids.length).toBeGreaterThan(0);
      expect(triplet.metadata.response_id).toBe(llm[i]!.attributes['gen_ai.response.id']);
      expect(triplet.response.logprobs).toHaveLength(triplet.response.token_ids.length);
    });
    expect(adapted.triplets.map((t) => t.reward)).toEqual([null, 0.75]);
    expect(adapted.triplets[0]!.metadata.request).toMatchObject({ model: 'fixture-tools' });

    const call = first.choices[0]!.message.tool_calls![0]!;
    if (call.type !== 'function') throw new Error('expected a function call');
    const toolCall = {
      id: call.id,
      type: 'function',
      function: { name: 'get_weather', arguments: call.function.arguments },
    };
    const tools = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather for a city',
          parameters: WEATHER_TOOL.function.parameters,
        },
      },
    ];
    expect(adapted.messages).toEqual([
      {
        messages: [
          { role: 'user', content: 'Weather in Lima?' },
          { role: 'assistant', content: null, tool_calls: [toolCall] },
        ],
        tools,
      },
      {
        messages: [
          { role: 'user', content: 'Weather in Lima?' },
          { role: 'assistant', content: null, tool_calls: [toolCall] },
          { role: 'tool', content: 'sunny', tool_call_id: call.id },
          { role: 'assistant', content: second },
        ],
        tools,
      },
    ]);
  }, 120_000); // importing agentlightning takes seconds
});
