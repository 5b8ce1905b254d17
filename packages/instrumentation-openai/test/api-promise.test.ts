import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { attributesOf, onlySpan, SDKS, spansNamed, useHarness } from './helpers.js';

const MESSAGES = [{ role: 'user' as const, content: 'Hello promise' }];

describe.each(SDKS)('APIPromise behaviour ($name)', (sdk) => {
  const h = useHarness(sdk, { requestTokenIds: true });

  it('keeps .withResponse() working', async () => {
    const { data, response, request_id } = await h
      .client()
      .chat.completions.create({ model: 'm', messages: MESSAGES })
      .withResponse();

    expect(data.choices[0]?.message.content).toBe('Fixture answer to: Hello promise');
    expect(response.status).toBe(200);
    expect(request_id).toBe(response.headers.get('x-request-id'));
    expect(onlySpan(h.exporter, 'openai.chat.completion').attributes['gen_ai.response.id']).toBe(
      data.id,
    );
  });

  it('keeps .asResponse() working (the caller reads the body) and still ends the span', async () => {
    const response = await h
      .client()
      .chat.completions.create({ model: 'm', messages: MESSAGES })
      .asResponse();
    const body = (await response.json()) as { choices: { message: { content: string } }[] };

    expect(body.choices[0]?.message.content).toBe('Fixture answer to: Hello promise');
    const span = onlySpan(h.exporter, 'openai.chat.completion');
    expect(span.attributes['arclight.openai.raw_response']).toBe(true);
    expect(span.attributes['gen_ai.prompt.0.content']).toBe('Hello promise');
  });

  it('keeps .withResponse() working for streams', async () => {
    const { data: stream, response } = await h
      .client()
      .chat.completions.create({ model: 'm', messages: MESSAGES, stream: true })
      .withResponse();
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Fixture answer to: Hello promise');
    expect(attributesOf(onlySpan(h.exporter, 'openai.chat.completion'))).toMatchObject({
      'gen_ai.completion.0.content': text,
      'gen_ai.request.streaming': true,
    });
  });

  it('keeps SDK helpers built on create working: parse(), stream(), responses.parse()', async () => {
    const client = h.client();
    const Lookup = z.object({ city: z.string() });
    const { zodFunction } = await import(
      sdk.name === 'openai@7' ? 'openai/helpers/zod' : 'openai6/helpers/zod'
    );
    const parsed = await client.chat.completions.parse({
      model: 'fixture-tools',
      messages: MESSAGES,
      tools: [zodFunction({ name: 'lookup', parameters: Lookup })],
    });
    const toolCall = parsed.choices[0]?.message.tool_calls?.[0];
    if (toolCall?.type !== 'function') throw new Error('expected a function tool call');
    expect(toolCall.function.parsed_arguments).toEqual({ city: expect.any(String) });

    const runner = client.chat.completions.stream({ model: 'm', messages: MESSAGES });
    const final = await runner.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Fixture answer to: Hello promise');

    const response = await client.responses.parse({ model: 'm', input: 'Hello promise' });
    expect(response.output_text).toBe('Fixture answer to: Hello promise');

    expect(spansNamed(h.exporter, 'openai.chat.completion')).toHaveLength(2);
    expect(spansNamed(h.exporter, 'openai.responses.create')).toHaveLength(1);
    const streamed = spansNamed(h.exporter, 'openai.chat.completion')[1]!;
    expect(streamed.attributes['gen_ai.completion.0.content']).toBe(
      final.choices[0]?.message.content,
    );
  });

  it('passes through calls without a body object untouched', async () => {
    const create = h.client().chat.completions.create as unknown as (
      body?: unknown,
    ) => Promise<unknown>;
    const call = async () => create.call(h.client().chat.completions);
    await expect(call()).rejects.toBeInstanceOf(Error);
    expect(h.exporter.getFinishedSpans()).toHaveLength(0);
  });
});
