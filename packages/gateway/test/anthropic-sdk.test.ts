import Anthropic from '@anthropic-ai/sdk';
import { InMemoryLightningStore } from '@arclight/store';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  });
});

afterAll(async () => {
  await gateway?.stop();
  await llm?.close();
});

function clientFor(rolloutId: string, attemptId: string): Anthropic {
  // The Anthropic SDK appends `/v1/messages` to its base URL.
  const base = gateway.baseUrl(rolloutId, attemptId).replace(/\/v1$/, '');
  return new Anthropic({ baseURL: base, apiKey: 'unused', maxRetries: 0 });
}

describe('Anthropic Messages through the gateway (@anthropic-ai/sdk)', () => {
  it('answers in the Messages shape and records the backend token ids, streamed and plain alike', async () => {
    const a = await newRollout(store);
    const b = await newRollout(store);
    const request = {
      model: 'fixture-model',
      max_tokens: 64,
      system: 'You pick rooms.',
      messages: [{ role: 'user' as const, content: 'Which room has a projector?' }],
    };
    const message = await clientFor(a.rolloutId, a.attemptId).messages.create(request);
    expect(message.type).toBe('message');
    expect(message.stop_reason).toBe('end_turn');
    const text = message.content[0]?.type === 'text' ? message.content[0].text : '';
    expect(text).toBe('Fixture answer to: Which room has a projector?');
    expect(llm.requests.at(-1)?.path).toBe('/v1/chat/completions');

    const stream = clientFor(b.rolloutId, b.attemptId).messages.stream(request);
    const streamed = await stream.finalMessage();
    expect(streamed.content[0]?.type === 'text' ? streamed.content[0].text : '').toBe(text);
    expect(streamed.stop_reason).toBe('end_turn');
    expect(streamed.usage.output_tokens).toBe(message.usage.output_tokens);

    const spanA = llmSpan(await spansOf(gateway, store, a.rolloutId));
    const spanB = llmSpan(await spansOf(gateway, store, b.rolloutId));
    const backend = message as unknown as { prompt_token_ids: number[]; token_ids: number[] };
    expect(spanA.attributes.prompt_token_ids).toEqual(backend.prompt_token_ids);
    expect(spanA.attributes.response_token_ids).toEqual(backend.token_ids);
    expect(spanB.attributes.prompt_token_ids).toEqual(backend.prompt_token_ids);
    expect(spanB.attributes.response_token_ids).toEqual(backend.token_ids);
    expect(spanA.attributes['gen_ai.prompt.0.role']).toBe('system');
    expect(spanB.attributes[GatewayAttributes.CLIENT_API]).toBe('anthropic.messages');
  });

  it('translates tool use both ways (plain and streamed)', async () => {
    const tools = [
      {
        name: 'get_room',
        description: 'Look a room up',
        input_schema: { type: 'object' as const, properties: { floor: { type: 'integer' } } },
      },
    ];
    const ids = await newRollout(store);
    const client = clientFor(ids.rolloutId, ids.attemptId);
    const first = await client.messages.create({
      model: 'fixture-tools',
      max_tokens: 128,
      tools,
      messages: [{ role: 'user', content: 'Find a room' }],
    });
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((b) => b.type === 'tool_use');
    expect(use).toMatchObject({ type: 'tool_use', name: 'get_room', input: { floor: 1 } });
    const streamed = await client.messages
      .stream({
        model: 'fixture-tools',
        max_tokens: 128,
        tools,
        messages: [{ role: 'user', content: 'Find a room' }],
      })
      .finalMessage();
    expect(streamed.content.find((b) => b.type === 'tool_use')).toMatchObject({
      name: 'get_room',
      input: { floor: 1 },
    });

    const second = await client.messages.create({
      model: 'fixture-tools',
      max_tokens: 128,
      tools,
      messages: [
        { role: 'user', content: 'Find a room' },
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: use?.type === 'tool_use' ? use.id : '',
              content: 'Room 7',
            },
          ],
        },
      ],
    });
    expect(second.content[0]?.type === 'text' ? second.content[0].text : '').toContain('Room 7');
  });

  it('answers malformed Messages calls with an Anthropic-shaped 400', async () => {
    const ids = await newRollout(store);
    const error = await clientFor(ids.rolloutId, ids.attemptId)
      .messages.create({ model: 'fixture-model', max_tokens: 10, messages: [] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toContain('messages: expected a non-empty array');
  });
});
