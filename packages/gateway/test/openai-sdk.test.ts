import { TracerTraceToTriplet } from '@arclight/adapter';
import { InMemoryLightningStore } from '@arclight/store';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayAttributes, type LlmGateway, startGateway } from '../src/index.js';
import { llmSpan, newRollout, spansOf } from './support.js';

let llm: FixtureLlm;
let store: InMemoryLightningStore;
let gateway: LlmGateway;

beforeAll(async () => {
  llm = await startFixtureLlm();
  store = new InMemoryLightningStore();
  gateway = await startGateway({
    backends: [{ url: llm.baseUrl }],
    store,
    healthCheckIntervalMs: 0,
    samplingOverrides: { train: { temperature: 1.0 }, val: { temperature: 0.7 } },
  });
});

afterAll(async () => {
  await gateway?.stop();
  await llm?.close();
});

beforeEach(() => llm.reset());

function clientFor(rolloutId: string, attemptId: string): OpenAI {
  return new OpenAI({
    baseURL: gateway.baseUrl(rolloutId, attemptId),
    apiKey: 'unused',
    maxRetries: 0,
  });
}

const messages = [
  { role: 'system' as const, content: 'You pick rooms.' },
  { role: 'user' as const, content: 'Which room has a projector?' },
];

describe('chat completions through the gateway (openai SDK)', () => {
  it('records the backend token ids; streaming and plain calls record identical ids', async () => {
    const plainIds = await newRollout(store);
    const plain = await clientFor(plainIds.rolloutId, plainIds.attemptId).chat.completions.create({
      model: 'fixture-model',
      messages,
    });
    // The gateway asked the backend for token ids and passed them through.
    const backendPrompt = (plain as unknown as { prompt_token_ids: number[] }).prompt_token_ids;
    const backendResponse = (plain.choices[0] as unknown as { token_ids: number[] }).token_ids;
    expect(llm.requests.at(-1)?.body).toMatchObject({ return_token_ids: true });
    expect(backendPrompt.length).toBeGreaterThan(5);
    expect(backendResponse.at(-1)).toBe(2);

    const streamIds = await newRollout(store);
    const stream = await clientFor(
      streamIds.rolloutId,
      streamIds.attemptId,
    ).chat.completions.create({
      model: 'fixture-model',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(chunks).toBeGreaterThan(3);
    expect(text).toBe(plain.choices[0]?.message.content);

    const plainSpan = llmSpan(await spansOf(gateway, store, plainIds.rolloutId));
    const streamSpan = llmSpan(await spansOf(gateway, store, streamIds.rolloutId));
    expect(plainSpan.name).toBe('openai.chat.completion');
    expect(plainSpan.attributes.prompt_token_ids).toEqual(backendPrompt);
    expect(plainSpan.attributes.response_token_ids).toEqual(backendResponse);
    expect(streamSpan.attributes.prompt_token_ids).toEqual(backendPrompt);
    expect(streamSpan.attributes.response_token_ids).toEqual(backendResponse);
    expect(streamSpan.attributes['gen_ai.completion.0.content']).toBe(text);
    expect(streamSpan.attributes['gen_ai.completion.0.finish_reason']).toBe('stop');
    expect(streamSpan.attributes['gen_ai.usage.completion_tokens']).toBe(backendResponse.length);
    expect(streamSpan.attributes['gen_ai.request.streaming']).toBe(true);
    expect(plainSpan.attributes['gen_ai.prompt.1.content']).toBe('Which room has a projector?');
    expect(plainSpan.attributes[GatewayAttributes.BACKEND]).toBe(llm.baseUrl);
    expect(plainSpan.sequence_id).toBeGreaterThan(0);
    expect(plainSpan.rollout_id).toBe(plainIds.rolloutId);
    expect(plainSpan.attempt_id).toBe(plainIds.attemptId);
  });

  it('streams tool calls and records them (and tool_call child spans) like the plain call', async () => {
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'get_room',
          parameters: { type: 'object', properties: { floor: { type: 'integer' } } },
        },
      },
    ];
    const a = await newRollout(store);
    const b = await newRollout(store);
    const plain = await clientFor(a.rolloutId, a.attemptId).chat.completions.create({
      model: 'fixture-tools',
      messages,
      tools,
    });
    const stream = await clientFor(b.rolloutId, b.attemptId).chat.completions.create({
      model: 'fixture-tools',
      messages,
      tools,
      stream: true,
    });
    for await (const _ of stream) {
      // drain
    }
    const spansA = await spansOf(gateway, store, a.rolloutId);
    const spansB = await spansOf(gateway, store, b.rolloutId);
    const [callA, callB] = [llmSpan(spansA), llmSpan(spansB)];
    expect(callA.attributes['gen_ai.completion.0.finish_reason']).toBe('tool_calls');
    expect(callB.attributes['gen_ai.completion.0.tool_calls.0.name']).toBe('get_room');
    expect(callB.attributes['gen_ai.completion.0.tool_calls.0.arguments']).toBe(
      plain.choices[0]?.message.tool_calls?.[0]?.type === 'function'
        ? plain.choices[0].message.tool_calls[0].function.arguments
        : undefined,
    );
    expect(callB.attributes.response_token_ids).toEqual(callA.attributes.response_token_ids);
    for (const spans of [spansA, spansB]) {
      const child = spans.find((s) => s.name === 'tool_call.get_room');
      expect(child?.parent_id).toBe(llmSpan(spans).span_id);
    }
  });

  it('records legacy completions and responses identically streamed and plain', async () => {
    for (const api of ['completions', 'responses'] as const) {
      const a = await newRollout(store);
      const b = await newRollout(store);
      if (api === 'completions') {
        await clientFor(a.rolloutId, a.attemptId).completions.create({
          model: 'fixture-model',
          prompt: 'Say hi',
          max_tokens: 12,
        });
        const s = await clientFor(b.rolloutId, b.attemptId).completions.create({
          model: 'fixture-model',
          prompt: 'Say hi',
          max_tokens: 12,
          stream: true,
        });
        for await (const _ of s) {
          // drain
        }
      } else {
        await clientFor(a.rolloutId, a.attemptId).responses.create({
          model: 'fixture-model',
          input: 'Say hi',
        });
        const s = await clientFor(b.rolloutId, b.attemptId).responses.create({
          model: 'fixture-model',
          input: 'Say hi',
          stream: true,
        });
        for await (const _ of s) {
          // drain
        }
      }
      const spanA = llmSpan(await spansOf(gateway, store, a.rolloutId));
      const spanB = llmSpan(await spansOf(gateway, store, b.rolloutId));
      expect(spanA.name).toBe(
        api === 'completions' ? 'openai.completion' : 'openai.responses.create',
      );
      expect((spanA.attributes.prompt_token_ids as number[]).length).toBeGreaterThan(0);
      expect((spanA.attributes.response_token_ids as number[]).length).toBeGreaterThan(0);
      expect(spanB.attributes.prompt_token_ids).toEqual(spanA.attributes.prompt_token_ids);
      expect(spanB.attributes.response_token_ids).toEqual(spanA.attributes.response_token_ids);
      expect(spanB.attributes['gen_ai.completion.0.content']).toBe(
        spanA.attributes['gen_ai.completion.0.content'],
      );
    }
  });

  it('attributes 64 concurrent rollouts correctly and our adapter builds their triplets', async () => {
    const rollouts = await Promise.all(
      Array.from({ length: 64 }, (_, i) => newRollout(store, { i })),
    );
    await Promise.all(
      rollouts.map(async ({ rolloutId, attemptId }, i) => {
        const client = clientFor(rolloutId, attemptId);
        const stream = i % 2 === 0;
        const content = `question number ${i}`;
        if (stream) {
          const s = await client.chat.completions.create({
            model: 'fixture-model',
            messages: [{ role: 'user', content }],
            stream: true,
          });
          for await (const _ of s) {
            // drain
          }
        } else {
          await client.chat.completions.create({
            model: 'fixture-model',
            messages: [{ role: 'user', content }],
          });
        }
      }),
    );
    const adapter = new TracerTraceToTriplet();
    for (const [i, { rolloutId, attemptId }] of rollouts.entries()) {
      const spans = await spansOf(gateway, store, rolloutId);
      const span = llmSpan(spans);
      expect(span.attempt_id).toBe(attemptId);
      expect(span.attributes['gen_ai.prompt.0.content']).toBe(`question number ${i}`);
      expect(span.attributes['gen_ai.completion.0.content']).toBe(
        `Fixture answer to: question number ${i}`,
      );
      const triplets = adapter.adapt(spans);
      expect(triplets).toHaveLength(1);
      const prompt = triplets[0]!.prompt as { token_ids: number[] };
      const response = triplets[0]!.response as { token_ids: number[] };
      expect(llm.tokenizer.decode(prompt.token_ids)).toContain(`question number ${i}`);
      expect(llm.tokenizer.decode(response.token_ids)).toBe(
        `Fixture answer to: question number ${i}<|im_end|>`,
      );
    }
  });

  it('routes by x-rollout-id / x-attempt-id headers on plain /v1 and forwards calls outside rollouts unrecorded', async () => {
    const ids = await newRollout(store);
    const client = new OpenAI({
      baseURL: `${gateway.url}/v1`,
      apiKey: 'unused',
      maxRetries: 0,
      defaultHeaders: { 'x-rollout-id': ids.rolloutId, 'x-attempt-id': ids.attemptId },
    });
    await client.chat.completions.create({ model: 'fixture-model', messages });
    expect(llmSpan(await spansOf(gateway, store, ids.rolloutId)).attempt_id).toBe(ids.attemptId);

    const before = gateway.tracer.stats.exported;
    const outside = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const res = await outside.chat.completions.create({ model: 'fixture-model', messages });
    expect(res.choices[0]?.message.content).toContain('Fixture answer');
    await gateway.tracer.flush(5_000);
    expect(gateway.tracer.stats.exported).toBe(before);
  });

  it('forces per-mode sampling overrides (x-rollout-mode header, else the rollout mode in the store)', async () => {
    const ids = await newRollout(store);
    const client = clientFor(ids.rolloutId, ids.attemptId);
    await client.chat.completions.create(
      { model: 'fixture-model', messages, temperature: 0.1 },
      { headers: { 'x-rollout-mode': 'val' } },
    );
    expect(llm.requests.at(-1)?.body).toMatchObject({ temperature: 0.7 });
    const train = await store.startRollout({ input: {}, mode: 'train' });
    await clientFor(train.rollout_id, train.attempt.attempt_id).chat.completions.create({
      model: 'fixture-model',
      messages,
      temperature: 0.1,
    });
    expect(llm.requests.at(-1)?.body).toMatchObject({ temperature: 1.0 });
    const span = llmSpan(await spansOf(gateway, store, train.rollout_id));
    expect(span.attributes['gen_ai.request.temperature']).toBe(1.0);
  });

  it('lists models and gives the ProxyLLM resource upstream runners use', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain('fixture-model');
    const resource = gateway.asResource({ model: 'fixture-model' });
    expect(resource.resource_type).toBe('proxy_llm');
    expect(resource.endpoint).toBe(`${gateway.url}/v1`);
    expect(resource.getBaseUrl('ro-1', 'at-1')).toBe(`${gateway.url}/rollout/ro-1/attempt/at-1/v1`);
  });
});
