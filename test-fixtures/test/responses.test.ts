import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { FixtureTokenizer, IM_END_ID } from '../src/index.js';
import { RETURN_IDS, useFixtureLlm } from './helpers.js';

const env = useFixtureLlm({ recordings: false });
const tok = new FixtureTokenizer();
const weather = {
  type: 'function' as const,
  name: 'get_weather',
  strict: false,
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};

type WithIds = { token_ids?: number[] };

describe('POST /v1/responses', () => {
  it('answers plain text with usage and token ids', async () => {
    const res = await env.client.responses.create({
      model: 'fixture-model',
      instructions: 'Be kind.',
      input: 'Say hello',
      ...RETURN_IDS,
    });
    expect(res.status).toBe('completed');
    expect(res.output_text).toBe('Fixture answer to: Say hello');
    const item = res.output[0]! as (typeof res.output)[0] & WithIds;
    const prompt = (res as typeof res & { prompt_token_ids: number[] }).prompt_token_ids;
    expect(tok.decode(prompt)).toBe(
      tok.render([
        { role: 'system', content: 'Be kind.' },
        { role: 'user', content: 'Say hello' },
      ]),
    );
    expect(res.usage?.input_tokens).toBe(prompt.length);
    expect(res.usage?.output_tokens).toBe(item.token_ids!.length);
    expect(item.token_ids!.at(-1)).toBe(IM_END_ID);
  });

  it('streams events ending with response.completed carrying the full response', async () => {
    const plain = await env.client.responses.create({ model: 'm', input: 'Say hello' });
    const stream = await env.client.responses.create({
      model: 'm',
      input: 'Say hello',
      stream: true,
    });
    const events: ResponseStreamEvent[] = [];
    for await (const e of stream) events.push(e);
    const types = events.map((e) => e.type);
    expect(types.slice(0, 4)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
    ]);
    expect(types.at(-1)).toBe('response.completed');
    expect(types.filter((t) => t === 'response.output_text.delta').length).toBeGreaterThan(2);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const text = events
      .flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : []))
      .join('');
    expect(text).toBe(plain.output_text);
    const done = events.at(-1)!;
    if (done.type !== 'response.completed') throw new Error('expected response.completed');
    expect(done.response.output).toHaveLength(1);
    expect(done.response.usage).toEqual(plain.usage);
  });

  it('calls a function and streams its arguments', async () => {
    const plain = await env.client.responses.create({
      model: 'fixture-tools',
      input: 'Weather?',
      tools: [weather],
    });
    const call = plain.output[0]!;
    if (call.type !== 'function_call') throw new Error('expected a function_call item');
    expect(call.name).toBe('get_weather');
    expect(JSON.parse(call.arguments)).toEqual({ city: 'city-value' });

    const stream = await env.client.responses.create({
      model: 'fixture-tools',
      input: 'Weather?',
      tools: [weather],
      stream: true,
    });
    const events: ResponseStreamEvent[] = [];
    for await (const e of stream) events.push(e);
    const deltas = events.flatMap((e) =>
      e.type === 'response.function_call_arguments.delta' ? [e.delta] : [],
    );
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(call.arguments);
    const argsDone = events.find((e) => e.type === 'response.function_call_arguments.done');
    expect(argsDone?.type === 'response.function_call_arguments.done' && argsDone.arguments).toBe(
      call.arguments,
    );
    const added = events.find((e) => e.type === 'response.output_item.added');
    expect(added?.type === 'response.output_item.added' && added.item.type).toBe('function_call');
    expect(events.at(-1)!.type).toBe('response.completed');
  });

  it('answers function_call_output input with a summary', async () => {
    const res = await env.client.responses.create({
      model: 'fixture-tools',
      tools: [weather],
      input: [
        { role: 'user', content: 'Weather?' },
        {
          type: 'function_call',
          call_id: 'call_1',
          name: 'get_weather',
          arguments: '{"city":"Rome"}',
        },
        { type: 'function_call_output', call_id: 'call_1', output: 'rainy' },
      ],
    });
    expect(res.output_text).toBe('Based on the tool results: get_weather: rainy');
  });

  it('reports max_output_tokens truncation as incomplete', async () => {
    const res = await env.client.responses.create({
      model: 'm',
      input: 'Say hello',
      max_output_tokens: 3,
    });
    expect(res.status).toBe('incomplete');
    expect(res.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(res.usage?.output_tokens).toBe(3);
  });
});
