import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import {
  attributesOf,
  lastRequestBody,
  onlySpan,
  SDKS,
  spansNamed,
  useHarness,
  without,
} from './helpers.js';

const MESSAGES = [
  { role: 'system' as const, content: 'You are terse.' },
  { role: 'user' as const, content: 'Hi there' },
];

const WEATHER_TOOL = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    },
  },
};

describe.each(SDKS)('chat completions ($name)', (sdk) => {
  const h = useHarness(sdk);

  it('writes one CLIENT span with the upstream attribute layout', async () => {
    const completion = await h.client().chat.completions.create({
      model: 'fixture-model',
      messages: MESSAGES,
      temperature: 0.5,
      max_tokens: 64,
      top_p: 0.9,
    });

    expect(completion.choices[0]?.message.content).toBe('Fixture answer to: Hi there');
    const span = onlySpan(h.exporter, 'openai.chat.completion');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(attributesOf(span)['gen_ai.response.id']).toBe(completion.id);
    expect(without(attributesOf(span), 'gen_ai.response.id')).toMatchInlineSnapshot(`
      {
        "gen_ai.completion.0.content": "Fixture answer to: Hi there",
        "gen_ai.completion.0.finish_reason": "stop",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.prompt.0.content": "You are terse.",
        "gen_ai.prompt.0.role": "system",
        "gen_ai.prompt.1.content": "Hi there",
        "gen_ai.prompt.1.role": "user",
        "gen_ai.request.max_tokens": 64,
        "gen_ai.request.model": "fixture-model",
        "gen_ai.request.streaming": false,
        "gen_ai.request.temperature": 0.5,
        "gen_ai.request.top_p": 0.9,
        "gen_ai.request.type": "chat",
        "gen_ai.response.model": "fixture-model",
        "gen_ai.system": "OpenAI",
        "gen_ai.usage.completion_tokens": 12,
        "gen_ai.usage.prompt_tokens": 26,
        "gen_ai.usage.total_tokens": 38,
      }
    `);
  });

  it('records token ids and logprobs, identical for streaming and non-streaming calls', async () => {
    h.instrument({ requestTokenIds: true, requestLogprobs: 2 });
    const client = h.client();
    const plain = await client.chat.completions.create({
      model: 'fixture-model',
      messages: MESSAGES,
    });
    const stream = await client.chat.completions.create({
      model: 'fixture-model',
      messages: MESSAGES,
      stream: true,
      stream_options: { include_usage: true },
    });
    let streamed = '';
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';

    expect(streamed).toBe(plain.choices[0]?.message.content);
    const [plainSpan, streamSpan] = spansNamed(h.exporter, 'openai.chat.completion');
    const plainAttrs = attributesOf(plainSpan!);
    const streamAttrs = attributesOf(streamSpan!);
    const raw = plain as unknown as {
      prompt_token_ids: number[];
      choices: { token_ids: number[] }[];
    };
    expect(plainAttrs.prompt_token_ids).toEqual(raw.prompt_token_ids);
    expect(plainAttrs.response_token_ids).toEqual(raw.choices[0]?.token_ids);
    expect((plainAttrs.response_token_ids as number[]).length).toBe(plain.usage?.completion_tokens);
    expect(JSON.parse(plainAttrs['logprobs.content'] as string)).toEqual(
      plain.choices[0]?.logprobs?.content,
    );
    expect(streamAttrs['gen_ai.request.streaming']).toBe(true);
    const differ = ['gen_ai.request.streaming', 'gen_ai.response.id', 'stream_options'];
    expect(without(streamAttrs, ...differ)).toEqual(without(plainAttrs, ...differ));
  });

  it('adds return_token_ids / logprobs to the outgoing request only when asked, never overriding', async () => {
    const client = h.client();
    await client.chat.completions.create({ model: 'm', messages: MESSAGES });
    expect(lastRequestBody(h.llm)).not.toHaveProperty('return_token_ids');
    expect(lastRequestBody(h.llm)).not.toHaveProperty('logprobs');

    h.instrument({ requestTokenIds: true, requestLogprobs: 3 });
    await client.chat.completions.create({ model: 'm', messages: MESSAGES });
    expect(lastRequestBody(h.llm)).toMatchObject({
      return_token_ids: true,
      logprobs: true,
      top_logprobs: 3,
    });

    const explicit = { model: 'm', messages: MESSAGES, logprobs: false, return_token_ids: false };
    await client.chat.completions.create(
      explicit as typeof explicit & { messages: typeof MESSAGES },
    );
    expect(lastRequestBody(h.llm)).toMatchObject({ return_token_ids: false, logprobs: false });
    expect(lastRequestBody(h.llm)).not.toHaveProperty('top_logprobs');
    expect(spansNamed(h.exporter, 'openai.chat.completion')).toHaveLength(3);
  });

  it('records tool definitions, tool calls (attributes and child spans) and tool turns', async () => {
    const client = h.client();
    const first = await client.chat.completions.create({
      model: 'fixture-tools',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [WEATHER_TOOL],
    });
    const call = first.choices[0]?.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('expected a function tool call');
    await client.chat.completions.create({
      model: 'fixture-tools',
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: '{"temp": 21}' },
      ],
      tools: [WEATHER_TOOL],
    });

    const [callSpan, answerSpan] = spansNamed(h.exporter, 'openai.chat.completion');
    const a = attributesOf(callSpan!);
    expect(a).toMatchObject({
      'gen_ai.request.functions.0.name': 'get_weather',
      'gen_ai.request.functions.0.description': 'Weather for a city',
      'gen_ai.request.functions.0.parameters': JSON.stringify(WEATHER_TOOL.function.parameters),
      'gen_ai.completion.0.finish_reason': 'tool_calls',
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.tool_calls.0.id': call.id,
      'gen_ai.completion.0.tool_calls.0.name': 'get_weather',
      'gen_ai.completion.0.tool_calls.0.arguments': call.function.arguments,
    });
    expect(a).not.toHaveProperty('gen_ai.completion.0.content');
    const toolSpan = onlySpan(h.exporter, 'tool_call.get_weather');
    expect(toolSpan.parentSpanContext?.spanId).toBe(callSpan!.spanContext().spanId);
    expect(attributesOf(toolSpan)).toEqual({
      'tool.call.id': call.id,
      'tool.call.type': 'function',
      'tool.name': 'get_weather',
      'tool.parameters': call.function.arguments,
    });
    expect(attributesOf(answerSpan!)).toMatchObject({
      'gen_ai.prompt.1.role': 'assistant',
      'gen_ai.prompt.1.tool_calls.0.id': call.id,
      'gen_ai.prompt.1.tool_calls.0.name': 'get_weather',
      'gen_ai.prompt.1.tool_calls.0.arguments': call.function.arguments,
      'gen_ai.prompt.2.role': 'tool',
      'gen_ai.prompt.2.tool_call_id': call.id,
      'gen_ai.prompt.2.content': '{"temp": 21}',
      'gen_ai.completion.0.finish_reason': 'stop',
    });
    expect(attributesOf(answerSpan!)).not.toHaveProperty('gen_ai.prompt.1.content');
  });

  it('merges streamed tool-call deltas into the same attributes as a plain call', async () => {
    h.instrument({ requestTokenIds: true });
    const client = h.client();
    const body = {
      model: 'fixture-tools',
      messages: [{ role: 'user' as const, content: 'Weather in Oslo and Rome?' }],
      tools: [WEATHER_TOOL],
    };
    await client.chat.completions.create(body);
    const stream = await client.chat.completions.create({ ...body, stream: true });
    for await (const _ of stream) {
      // drain
    }
    const [plain, streamed] = spansNamed(h.exporter, 'openai.chat.completion');
    const differ = [
      'gen_ai.request.streaming',
      'gen_ai.response.id',
      'gen_ai.completion.0.tool_calls.0.id',
    ];
    const usage = [
      'gen_ai.usage.prompt_tokens',
      'gen_ai.usage.completion_tokens',
      'gen_ai.usage.total_tokens',
    ];
    expect(without(attributesOf(streamed!), ...differ)).toEqual(
      without(attributesOf(plain!), ...differ, ...usage),
    );
    expect(attributesOf(streamed!)['gen_ai.completion.0.tool_calls.0.name']).toBe('get_weather');
    expect(spansNamed(h.exporter, 'tool_call.get_weather')).toHaveLength(2);
  });

  it('keeps multimodal content as a JSON string so image urls stay recoverable', async () => {
    const content = [
      { type: 'text' as const, text: 'What is shown?' },
      { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,AAAA' } },
    ];
    await h.client().chat.completions.create({ model: 'm', messages: [{ role: 'user', content }] });
    const attrs = attributesOf(onlySpan(h.exporter, 'openai.chat.completion'));
    expect(JSON.parse(attrs['gen_ai.prompt.0.content'] as string)).toEqual(content);
  });

  it('omits text, arguments and logprobs with captureContent: false but keeps token ids', async () => {
    h.instrument({ captureContent: false, requestTokenIds: true, requestLogprobs: true });
    await h.client().chat.completions.create({
      model: 'fixture-tools',
      messages: [{ role: 'user', content: 'secret' }],
      tools: [WEATHER_TOOL],
    });
    const attrs = attributesOf(onlySpan(h.exporter, 'openai.chat.completion'));
    const keys = Object.keys(attrs);
    expect(keys.filter((k) => k.endsWith('.content') || k.endsWith('.arguments'))).toEqual([]);
    expect(attrs['gen_ai.prompt.0.role']).toBe('user');
    expect(attrs['gen_ai.completion.0.tool_calls.0.name']).toBe('get_weather');
    expect(attrs.prompt_token_ids).toBeInstanceOf(Array);
    expect(attrs.response_token_ids).toBeInstanceOf(Array);
    expect(JSON.stringify(attrs)).not.toContain('secret');
    expect(attributesOf(onlySpan(h.exporter, 'tool_call.get_weather'))).not.toHaveProperty(
      'tool.parameters',
    );
  });

  it('writes no tool-call child spans with toolCallSpans: false', async () => {
    h.instrument({ toolCallSpans: false });
    await h.client().chat.completions.create({
      model: 'fixture-tools',
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: [WEATHER_TOOL],
    });
    expect(h.exporter.getFinishedSpans().map((s) => s.name)).toEqual(['openai.chat.completion']);
  });

  it('records every choice of an n > 1 request; token ids come from the first', async () => {
    h.instrument({ requestTokenIds: true });
    const completion = await h
      .client()
      .chat.completions.create({ model: 'm', messages: MESSAGES, n: 2 });
    const attrs = attributesOf(onlySpan(h.exporter, 'openai.chat.completion'));
    expect(attrs['gen_ai.request.n']).toBe(2);
    expect(attrs['gen_ai.completion.0.content']).toBe(completion.choices[0]?.message.content);
    expect(attrs['gen_ai.completion.1.content']).toBe(completion.choices[1]?.message.content);
    const first = completion.choices[0] as unknown as { token_ids: number[] };
    expect(attrs.response_token_ids).toEqual(first.token_ids);
  });
});
