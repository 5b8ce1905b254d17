import { instrumentOpenAI } from '@arclight/instrumentation-openai';
import { emitReward, LightningTracer, operation } from '@arclight/otel';
import { InMemoryLightningStore } from '@arclight/store';
import OpenAI from 'openai';
import type { GoldenCase } from './outcome.js';

const WEATHER_TOOL = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

/**
 * OpenTelemetry JS stamps a span's start with `Date.now()` (whole milliseconds) but its end with that anchor
 * plus a sub-millisecond `performance.now()` duration, so a reward emitted less than 1 ms after an LLM span
 * ended can carry an earlier start than that end — and upstream's matching (end <= reward start) then skips
 * the call. The scenario waits a few milliseconds before each reward so the expected matching is stable.
 */
const afterClockTick = () => new Promise((resolve) => setTimeout(resolve, 5));

const OPTIONS = [
  {},
  { reward_match: 'first_sibling' },
  { agent_match: 'weather' },
  { llm_call_match: 'openai\\.' },
];

/**
 * Rollouts recorded by real Arclight instrumentation: the `openai` SDK instrumented by `@arclight/instrumentation-openai`,
 * spans and rewards through `@arclight/otel`'s LightningTracer into an InMemoryLightningStore, the model being
 * the fixture LLM at `baseUrl`. Returns one golden case per rollout (the stored spans, in store order).
 */
export async function recordArclightTraces(baseUrl: string): Promise<GoldenCase[]> {
  const store = new InMemoryLightningStore();
  const tracer = new LightningTracer({ store, logger: null });
  const uninstrument = instrumentOpenAI(OpenAI, {
    tracerProvider: tracer.tracerProvider,
    requestTokenIds: true,
    requestLogprobs: true,
  });
  const client = new OpenAI({ baseURL: baseUrl, apiKey: 'unused', maxRetries: 0 });
  const agentTracer = tracer.getTracer('golden-agent');
  const cases: GoldenCase[] = [];
  const record = async (name: string, body: () => Promise<void>) => {
    const rollout = await store.startRollout({ input: name });
    const ids = { rolloutId: rollout.rollout_id, attemptId: rollout.attempt.attempt_id };
    await tracer.traceContext(ids, body);
    const spans = (await store.querySpans(ids.rolloutId)).items;
    cases.push({ name: `arclight:${name}`, triplet: OPTIONS, spans });
  };
  try {
    await record('tools-stream', () =>
      agentTracer.startActiveSpan(
        'agent.run',
        { attributes: { 'agent.name': 'weather-agent' } },
        async (span) => {
          const user = { role: 'user' as const, content: 'Weather in Lima?' };
          const first = await client.chat.completions.create({
            model: 'fixture-tools',
            messages: [user],
            tools: [WEATHER_TOOL],
          });
          const call = first.choices[0]!.message.tool_calls![0]!;
          if (call.type !== 'function') throw new Error('expected a function call');
          const weather = await operation(async (city: string) => `sunny in ${city}`, {
            name: 'get_weather',
          })('Lima');
          await afterClockTick();
          emitReward(0.25);
          const stream = await client.chat.completions.create({
            model: 'fixture-tools',
            messages: [
              user,
              { role: 'assistant', content: null, tool_calls: [call] },
              { role: 'tool', tool_call_id: call.id, content: weather },
            ],
            tools: [WEATHER_TOOL],
            stream: true,
            stream_options: { include_usage: true },
          });
          for await (const _chunk of stream) {
            // drain
          }
          await afterClockTick();
          emitReward({ task: 1, style: 0.5 }, { primaryKey: 'task' });
          span.end();
        },
      ),
    );
    await record('judge-and-apis', async () => {
      await client.chat.completions.create({
        model: 'fixture-model',
        messages: [
          { role: 'system', content: 'Answer briefly.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is shown?' },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            ],
          },
        ],
      });
      await client.responses.create({ model: 'fixture-model', input: 'Summarise in one word.' });
      await client.completions.create({ model: 'fixture-model', prompt: 'Say yes', max_tokens: 4 });
      await operation.scope({ name: 'agentlightning.reward' }, async () => {
        await client.chat.completions.create({
          model: 'fixture-model',
          messages: [{ role: 'user', content: 'Grade the answer from 0 to 1.' }],
        });
        await afterClockTick();
        emitReward(0.5);
      });
    });
  } finally {
    uninstrument();
    await tracer.shutdown();
  }
  return cases;
}
