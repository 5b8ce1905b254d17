import { createOpenAI } from '@ai-sdk/openai';
import { LLM_CALL_SPAN_MATCH } from '@arclight/core';
import { generateText, streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arclightTelemetry, tokenIdsFetch, withArclight } from '../src/index.js';
import { type Harness, harness, intArray, requestBodies, triplets } from './support.js';

// @ai-sdk/openai (the provider of the AI SDK's own examples) validates its provider options, so token ids are
// requested by `tokenIdsFetch()`; `withArclight` reads them from the raw bodies / chunks.
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const provider = () =>
  createOpenAI({ baseURL: h.llm.baseUrl, apiKey: 'unused', fetch: tokenIdsFetch() });

describe.each([
  { api: 'chat completions', model: () => provider().chat('fixture-model') },
  { api: 'responses', model: () => provider().responses('fixture-model') },
])('@ai-sdk/openai, $api', ({ model }) => {
  it.each([
    { mode: 'generateText', call: (m: Parameters<typeof generateText>[0]) => generateText(m) },
    {
      mode: 'streamText',
      call: async (m: Parameters<typeof generateText>[0]) => {
        const result = streamText(m);
        return { text: await result.text };
      },
    },
  ])('$mode: one LLM-call span with prompt and response token ids', async ({ call }) => {
    h.llm.reset();
    const { result, spans } = await h.run(() =>
      call({
        model: withArclight(model()),
        prompt: 'Token ids please',
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer, { agentName: 'agent' }),
      }),
    );
    expect(result.text).toBe('Fixture answer to: Token ids please');
    expect(requestBodies(h.llm)[0]?.return_token_ids).toBe(true);
    const calls = spans.filter((s) => LLM_CALL_SPAN_MATCH.test(s.name));
    expect(calls).toHaveLength(1);
    expect(intArray(calls[0]?.attributes.prompt_token_ids).length).toBeGreaterThan(0);
    expect(intArray(calls[0]?.attributes.response_token_ids).length).toBeGreaterThan(0);
    expect(triplets(spans)).toHaveLength(1);
  });
});
