import type { Span } from '@arclight/core';
import { LightningTracer } from '@arclight/otel';
import { InMemoryLightningStore } from '@arclight/store';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { instrumentOpenAI, type Uninstrument } from '../src/index.js';
import { type Harness, harness, SDKS } from './helpers.js';

/** An in-process store whose span writes always reject. */
class DownStore extends InMemoryLightningStore {
  writes = 0;
  override async addManySpans(_spans: Span[]): Promise<Span[]> {
    this.writes += 1;
    throw new Error('store is down');
  }
}

async function newAttempt(store: InMemoryLightningStore) {
  const rollout = await store.startRollout({ input: 'task' });
  return { rolloutId: rollout.rollout_id, attemptId: rollout.attempt.attempt_id };
}

async function storedSpans(store: InMemoryLightningStore, rolloutId: string): Promise<Span[]> {
  return (await store.querySpans(rolloutId)).items;
}

const LLM = 'openai.chat.completion';
const WEATHER_TOOL = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe.each(SDKS)('through LightningTracer into a LightningStore ($name)', (sdk) => {
  let h: Harness;
  let tracer: LightningTracer;
  let uninstrument: Uninstrument;
  beforeAll(async () => {
    h = await harness(sdk);
  });
  afterAll(() => h.close());
  afterEach(async () => {
    uninstrument();
    await tracer.shutdown();
  });

  function setUp(store: InMemoryLightningStore, options: Record<string, number> = {}) {
    tracer = new LightningTracer({ store, logger: null, activate: false, ...options });
    uninstrument = instrumentOpenAI(sdk.OpenAI, {
      tracerProvider: tracer.tracerProvider,
      requestTokenIds: true,
    });
  }

  it('stores identical token ids for streaming and non-streaming calls, and tool calls', async () => {
    const store = new InMemoryLightningStore();
    setUp(store);
    const ids = await newAttempt(store);
    const client = h.client();
    const messages = [{ role: 'user' as const, content: 'Same request twice' }];

    await tracer.traceContext(ids, async () => {
      await client.chat.completions.create({ model: 'fixture-model', messages });
      const stream = await client.chat.completions.create({
        model: 'fixture-model',
        messages,
        stream: true,
      });
      for await (const _ of stream) {
        // drain
      }
      await client.chat.completions.create({
        model: 'fixture-tools',
        messages: [{ role: 'user', content: 'Weather in Lima?' }],
        tools: [WEATHER_TOOL],
      });
    });

    const spans = await storedSpans(store, ids.rolloutId);
    const llm = spans.filter((s) => s.name === LLM);
    expect(llm).toHaveLength(3);
    expect(spans.every((s) => s.attempt_id === ids.attemptId)).toBe(true);
    const [plain, streamed, tools] = llm;
    expect(plain!.attributes.prompt_token_ids).toEqual(expect.any(Array));
    expect((plain!.attributes.response_token_ids as number[]).length).toBeGreaterThan(0);
    expect(streamed!.attributes.prompt_token_ids).toEqual(plain!.attributes.prompt_token_ids);
    expect(streamed!.attributes.response_token_ids).toEqual(plain!.attributes.response_token_ids);

    expect(tools!.attributes['gen_ai.completion.0.tool_calls.0.name']).toBe('get_weather');
    const toolSpan = spans.find((s) => s.name === 'tool_call.get_weather');
    expect(toolSpan?.parent_id).toBe(tools!.span_id);
    expect(toolSpan?.attributes['tool.call.id']).toBe(
      tools!.attributes['gen_ai.completion.0.tool_calls.0.id'],
    );
  });

  it('attributes calls to the right rollout under two concurrent trace contexts', async () => {
    const store = new InMemoryLightningStore();
    setUp(store);
    const a = await newAttempt(store);
    const b = await newAttempt(store);
    const client = h.client();
    const agent = (label: string) => async () => {
      for (let turn = 0; turn < 3; turn += 1) {
        const stream = await client.chat.completions.create({
          model: 'fixture-model',
          messages: [{ role: 'user', content: `${label} turn ${turn}` }],
          stream: turn % 2 === 1,
        });
        if (Symbol.asyncIterator in stream) {
          for await (const _ of stream) {
            // drain
          }
        }
      }
      return label;
    };

    expect(
      await Promise.all([tracer.traceContext(a, agent('a')), tracer.traceContext(b, agent('b'))]),
    ).toEqual(['a', 'b']);

    for (const [ids, label] of [
      [a, 'a'],
      [b, 'b'],
    ] as const) {
      const prompts = (await storedSpans(store, ids.rolloutId)).map(
        (s) => s.attributes['gen_ai.prompt.0.content'],
      );
      expect(prompts).toEqual([`${label} turn 0`, `${label} turn 1`, `${label} turn 2`]);
    }
  });

  it('stores a failed call with status ERROR and the exception', async () => {
    const store = new InMemoryLightningStore();
    setUp(store);
    const ids = await newAttempt(store);
    const outcome = await tracer.traceContext(ids, () =>
      h
        .client()
        .chat.completions.create({
          model: 'fixture-error-500',
          messages: [{ role: 'user', content: 'x' }],
        })
        .then(
          () => 'resolved',
          (error: unknown) => error,
        ),
    );

    expect(outcome).toBeInstanceOf(sdk.OpenAI.InternalServerError);
    const [span] = await storedSpans(store, ids.rolloutId);
    expect(span?.name).toBe(LLM);
    expect(span?.status.status_code).toBe('ERROR');
    expect(span?.events.map((e) => e.name)).toEqual(['exception']);
  });

  it('leaves the agent unaffected when the store is down', async () => {
    const store = new DownStore();
    setUp(store, { maxRetries: 1, retryDelayMillis: 1, maxRetryDelayMillis: 1 });
    const ids = await newAttempt(store);
    const client = h.client();

    const answer = await tracer.traceContext(ids, async () => {
      const plain = await client.chat.completions.create({
        model: 'fixture-model',
        messages: [{ role: 'user', content: 'are you there?' }],
      });
      const stream = await client.chat.completions.create({
        model: 'fixture-model',
        messages: [{ role: 'user', content: 'still there?' }],
        stream: true,
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      return [plain.choices[0]?.message.content, text];
    });

    expect(answer).toEqual([
      'Fixture answer to: are you there?',
      'Fixture answer to: still there?',
    ]);
    expect(store.writes).toBeGreaterThan(0);
    expect(tracer.stats.dropped).toBe(2);
    expect(tracer.getLastTrace().map((s) => s.name)).toEqual([LLM, LLM]);
  });
});
