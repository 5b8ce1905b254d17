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

const SPAN = 'openai.completion';

describe.each(SDKS)('legacy completions ($name)', (sdk) => {
  const h = useHarness(sdk, { requestTokenIds: true });

  it('records prompt, text, usage and the per-choice token ids', async () => {
    const completion = await h.client().completions.create({
      model: 'fixture-model',
      prompt: 'Once upon a time',
      max_tokens: 8,
    });

    const choice = completion.choices[0] as unknown as {
      text: string;
      prompt_token_ids: number[];
      token_ids: number[];
    };
    expect(lastRequestBody(h.llm).return_token_ids).toBe(true);
    expect(attributesOf(onlySpan(h.exporter, SPAN))).toMatchObject({
      'gen_ai.request.type': 'completion',
      'gen_ai.request.model': 'fixture-model',
      'gen_ai.request.max_tokens': 8,
      'gen_ai.prompt.0.role': 'user',
      'gen_ai.prompt.0.content': 'Once upon a time',
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.content': choice.text,
      'gen_ai.completion.0.finish_reason': completion.choices[0]?.finish_reason,
      'gen_ai.response.id': completion.id,
      'gen_ai.usage.completion_tokens': completion.usage?.completion_tokens,
      prompt_token_ids: choice.prompt_token_ids,
      response_token_ids: choice.token_ids,
    });
  });

  it('produces the same attributes for a stream as for a plain call, logprobs in the chat layout', async () => {
    h.instrument({ requestTokenIds: true, requestLogprobs: 2 });
    const client = h.client();
    const body = { model: 'fixture-model', prompt: 'Tell me a story', max_tokens: 6 };
    const plain = await client.completions.create(body);
    const stream = await client.completions.create({
      ...body,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.text ?? '';

    expect(text).toBe(plain.choices[0]?.text);
    expect(lastRequestBody(h.llm).logprobs).toBe(2);
    const [plainSpan, streamSpan] = spansNamed(h.exporter, SPAN);
    const differ = ['gen_ai.request.streaming', 'gen_ai.response.id'];
    expect(without(attributesOf(streamSpan!), ...differ)).toEqual(
      without(attributesOf(plainSpan!), ...differ),
    );
    const logprobs = JSON.parse(attributesOf(plainSpan!)['logprobs.content'] as string);
    const legacy = plain.choices[0]?.logprobs;
    expect(logprobs.map((entry: { token: string }) => entry.token)).toEqual(legacy?.tokens);
    expect(logprobs[0]).toMatchObject({ logprob: legacy?.token_logprobs?.[0] });
    expect(logprobs[0].top_logprobs).toHaveLength(2);
  });

  it('records a list of prompts one prompt attribute each', async () => {
    await h
      .client()
      .completions.create({ model: 'fixture-model', prompt: ['a', 'b'], max_tokens: 2 });
    expect(attributesOf(onlySpan(h.exporter, SPAN))).toMatchObject({
      'gen_ai.prompt.0.content': 'a',
      'gen_ai.prompt.1.content': 'b',
    });
  });
});
