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
  {
    api: 'chat completions',
    model: () => provider().chat('fixture-model'),
    span: 'openai.chat.completion',
    path: '/v1/chat/completions',
  },
  // `openai('…')`, the provider's default model, calls the Responses API.
  {
    api: 'responses',
    model: () => provider()('fixture-model'),
    span: 'openai.responses.create',
    path: '/v1/responses',
  },
])('@ai-sdk/openai, $api', ({ model, span, path }) => {
  it.each([
    { mode: 'generateText', call: (m: Parameters<typeof generateText>[0]) => generateText(m) },
    {
      mode: 'streamText',
      call: async (m: Parameters<typeof generateText>[0]) => {
        const result = streamText(m);
        return { text: await result.text };
      },
    },
  ])(
    '$mode: one LLM-call span named for its API, with prompt and response token ids',
    async ({ call }) => {
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
      expect(calls.map((c) => c.name)).toEqual([span]);
      expect(h.llm.requests.map((r) => r.path)).toEqual([path]);
      expect(intArray(calls[0]?.attributes.prompt_token_ids).length).toBeGreaterThan(0);
      expect(intArray(calls[0]?.attributes.response_token_ids).length).toBeGreaterThan(0);
      expect(triplets(spans, { llmCallMatch: LLM_CALL_SPAN_MATCH })).toHaveLength(1);
    },
  );
});
