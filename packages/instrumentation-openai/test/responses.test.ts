import { SpanStatusCode } from '@opentelemetry/api';
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

const SPAN = 'openai.responses.create';

describe.each(SDKS)('responses API ($name)', (sdk) => {
  const h = useHarness(sdk, { requestTokenIds: true });

  it('writes instructions and input as prompts and the output as completion 0', async () => {
    const response = await h.client().responses.create({
      model: 'fixture-model',
      instructions: 'Be brief.',
      input: 'Hello responses',
      max_output_tokens: 50,
    });

    expect(response.output_text).toBe('Fixture answer to: Hello responses');
    expect(lastRequestBody(h.llm).return_token_ids).toBe(true);
    const attrs = attributesOf(onlySpan(h.exporter, SPAN));
    const raw = response as unknown as {
      prompt_token_ids: number[];
      output: { token_ids: number[] }[];
    };
    expect(attrs).toMatchObject({
      'gen_ai.request.type': 'chat',
      'gen_ai.system': 'OpenAI',
      'gen_ai.request.model': 'fixture-model',
      'gen_ai.request.max_tokens': 50,
      'gen_ai.request.streaming': false,
      'gen_ai.prompt.0.role': 'system',
      'gen_ai.prompt.0.content': 'Be brief.',
      'gen_ai.prompt.1.role': 'user',
      'gen_ai.prompt.1.content': 'Hello responses',
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.content': 'Fixture answer to: Hello responses',
      'gen_ai.completion.0.finish_reason': 'stop',
      'gen_ai.response.id': response.id,
      'gen_ai.usage.prompt_tokens': response.usage?.input_tokens,
      'gen_ai.usage.completion_tokens': response.usage?.output_tokens,
      'gen_ai.usage.total_tokens': response.usage?.total_tokens,
      prompt_token_ids: raw.prompt_token_ids,
      response_token_ids: raw.output.flatMap((item) => item.token_ids),
    });
  });

  it('produces the same attributes for a completed stream as for a plain call', async () => {
    h.instrument({ requestTokenIds: true, requestLogprobs: 1 });
    const client = h.client();
    const body = {
      model: 'fixture-model',
      input: [{ role: 'user' as const, content: 'Stream me' }],
    };
    await client.responses.create(body);
    const stream = await client.responses.create({ ...body, stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);

    expect(types.at(-1)).toBe('response.completed');
    const [plain, streamed] = spansNamed(h.exporter, SPAN);
    const differ = ['gen_ai.request.streaming', 'gen_ai.response.id'];
    expect(attributesOf(plain!)['logprobs.content']).toBeTypeOf('string');
    expect(without(attributesOf(streamed!), ...differ)).toEqual(
      without(attributesOf(plain!), ...differ),
    );
    expect(lastRequestBody(h.llm)).toMatchObject({
      include: ['message.output_text.logprobs'],
      top_logprobs: 1,
    });
  });

  it('records function tools, function calls and function outputs in the chat layout', async () => {
    const client = h.client();
    const tools = [
      {
        type: 'function' as const,
        name: 'lookup',
        description: 'Look a word up',
        parameters: {
          type: 'object',
          properties: { word: { type: 'string' } },
          required: ['word'],
        },
        strict: false,
      },
    ];
    const first = await client.responses.create({
      model: 'fixture-tools',
      input: 'Define apple',
      tools,
    });
    const call = first.output.find((item) => item.type === 'function_call');
    if (call?.type !== 'function_call') throw new Error('expected a function call');
    await client.responses.create({
      model: 'fixture-tools',
      input: [
        { role: 'user', content: 'Define apple' },
        {
          type: 'function_call',
          call_id: call.call_id,
          name: call.name,
          arguments: call.arguments,
        },
        { type: 'function_call_output', call_id: call.call_id, output: 'a fruit' },
      ],
      tools,
    });

    const [callSpan, answerSpan] = spansNamed(h.exporter, SPAN);
    expect(attributesOf(callSpan!)).toMatchObject({
      'gen_ai.request.functions.0.name': 'lookup',
      'gen_ai.request.functions.0.description': 'Look a word up',
      'gen_ai.request.functions.0.parameters': JSON.stringify(tools[0]!.parameters),
      'gen_ai.completion.0.finish_reason': 'tool_calls',
      'gen_ai.completion.0.tool_calls.0.id': call.call_id,
      'gen_ai.completion.0.tool_calls.0.name': 'lookup',
      'gen_ai.completion.0.tool_calls.0.arguments': call.arguments,
    });
    expect(attributesOf(onlySpan(h.exporter, 'tool_call.lookup'))['tool.call.id']).toBe(
      call.call_id,
    );
    expect(attributesOf(answerSpan!)).toMatchObject({
      'gen_ai.prompt.1.role': 'assistant',
      'gen_ai.prompt.1.tool_calls.0.id': call.call_id,
      'gen_ai.prompt.1.tool_calls.0.name': 'lookup',
      'gen_ai.prompt.2.role': 'tool',
      'gen_ai.prompt.2.tool_call_id': call.call_id,
      'gen_ai.prompt.2.content': 'a fruit',
    });
    expect(answerSpan!.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('ends an abandoned stream with the text and token ids that arrived', async () => {
    const stream = await h.client().responses.create({
      model: 'fixture-model',
      input: 'Please answer at some length',
      stream: true,
    });
    let text = '';
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (text.length > 0) break;
    }
    const attrs = attributesOf(onlySpan(h.exporter, SPAN));
    expect(attrs).toMatchObject({
      'arclight.stream.partial': true,
      'arclight.stream.end_reason': 'abandoned',
      'gen_ai.completion.0.content': text,
      'gen_ai.response.id': expect.stringMatching(/^resp_/),
    });
    expect((attrs.response_token_ids as number[]).length).toBeGreaterThan(0);
    expect(attrs.prompt_token_ids).toBeInstanceOf(Array);
  });
});
