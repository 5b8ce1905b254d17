// The gateway in front of a real model (SmolLM2-135M-Instruct on node-llama-cpp, the real-engine server): the
// spans it records hold exactly the ids the engine consumed and sampled, streamed or not, tool calls included.
import { InMemoryLightningStore } from '@arclight/store';
import { type RealEngine, startRealEngine } from '@arclight/test-fixtures/real-engine';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmGateway, startGateway } from '../../src/index.js';
import { llmSpan, newRollout, spansOf } from '../support.js';

let engine: RealEngine;
let store: InMemoryLightningStore;
let gateway: LlmGateway;

beforeAll(async () => {
  engine = await startRealEngine();
  store = new InMemoryLightningStore();
  gateway = await startGateway({
    backends: [{ url: engine.baseUrl }],
    store,
    healthCheckIntervalMs: 0,
  });
}, 600_000);

afterAll(async () => {
  await gateway?.stop();
  await engine?.close();
});

const client = (ids: { rolloutId: string; attemptId: string }) =>
  new OpenAI({
    baseURL: gateway.baseUrl(ids.rolloutId, ids.attemptId),
    apiKey: 'unused',
    maxRetries: 0,
    timeout: 600_000,
  });

const tools: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

describe('the gateway on a real model', () => {
  it('records the ids the engine served, identically for the streamed and the plain call', async () => {
    const request = {
      model: 'SmolLM2-135M-Instruct',
      messages: [{ role: 'user' as const, content: 'What is the weather in Oslo?' }],
      tools,
      tool_choice: 'required' as const,
      temperature: 0,
      max_tokens: 32,
    };
    const plainIds = await newRollout(store);
    const plain = await client(plainIds).chat.completions.create(request);
    const served = plain as unknown as {
      prompt_token_ids: number[];
      choices: { token_ids: number[] }[];
    };
    const toolCall = plain.choices[0]!.message.tool_calls?.[0];
    expect(toolCall?.type === 'function' && toolCall.function.name).toBe('get_weather');

    const streamIds = await newRollout(store);
    const stream = await client(streamIds).chat.completions.create({ ...request, stream: true });
    let calls = 0;
    for await (const chunk of stream) calls += chunk.choices[0]?.delta.tool_calls?.length ?? 0;
    expect(calls).toBe(1);

    const plainSpan = llmSpan(await spansOf(gateway, store, plainIds.rolloutId));
    const streamSpan = llmSpan(await spansOf(gateway, store, streamIds.rolloutId));
    expect(plainSpan.attributes.prompt_token_ids).toEqual(served.prompt_token_ids);
    expect(plainSpan.attributes.response_token_ids).toEqual(served.choices[0]!.token_ids);
    expect(streamSpan.attributes.prompt_token_ids).toEqual(served.prompt_token_ids);
    expect(streamSpan.attributes.response_token_ids).toEqual(served.choices[0]!.token_ids);
    // The ids are the model's: the prompt detokenizes to the GGUF template's rendering of the messages.
    expect(engine.model.detokenize(served.prompt_token_ids)).toContain(
      '<|im_start|>user\nWhat is the weather in Oslo?',
    );
    expect(engine.model.detokenize(served.choices[0]!.token_ids)).toContain(
      '<tool_call>{"name": "get_weather"',
    );
  }, 900_000);
});
