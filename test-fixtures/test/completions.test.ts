import type { Completion } from 'openai/resources/completions';
import { describe, expect, it } from 'vitest';
import { FixtureTokenizer, IM_END_ID } from '../src/index.js';
import { RETURN_IDS, useFixtureLlm } from './helpers.js';

type Choice = Completion['choices'][number] & { token_ids?: number[]; prompt_token_ids?: number[] };

const env = useFixtureLlm({ recordings: false });
const tok = new FixtureTokenizer();

describe('POST /v1/completions (legacy)', () => {
  it('returns text with per-choice prompt and completion token ids', async () => {
    const res = await env.client.completions.create({
      model: 'm',
      prompt: 'Once upon a time',
      max_tokens: 50,
      ...RETURN_IDS,
    });
    const choice = res.choices[0] as Choice;
    expect(res.object).toBe('text_completion');
    expect(choice.text).toBe('Fixture answer to: Once upon a time');
    expect(choice.prompt_token_ids).toEqual(tok.encode('Once upon a time'));
    expect(choice.token_ids).toEqual([...tok.encode(choice.text), IM_END_ID]);
    expect(res.usage).toEqual({
      prompt_tokens: choice.prompt_token_ids!.length,
      completion_tokens: choice.token_ids!.length,
      total_tokens: choice.prompt_token_ids!.length + choice.token_ids!.length,
    });
  });

  it('defaults max_tokens to 16 like vLLM', async () => {
    const res = await env.client.completions.create({ model: 'm', prompt: 'word '.repeat(40) });
    expect(res.choices[0]!.finish_reason).toBe('length');
    expect(res.usage?.completion_tokens).toBe(16);
  });

  it('uses the flat legacy logprobs shape', async () => {
    const res = await env.client.completions.create({
      model: 'm',
      prompt: 'Hi',
      logprobs: 2,
      ...RETURN_IDS,
    });
    const choice = res.choices[0] as Choice;
    const lp = choice.logprobs!;
    expect(lp.tokens).toHaveLength(choice.token_ids!.length);
    expect(lp.token_logprobs).toHaveLength(choice.token_ids!.length);
    expect(lp.tokens!.join('')).toBe(tok.decode(choice.token_ids!));
    expect(lp.top_logprobs!.every((t) => Object.keys(t).length === 2)).toBe(true);
    expect(lp.text_offset![1]).toBe(lp.tokens![0]!.length);
  });

  it('streams chunks whose ids and text concatenate to the plain answer', async () => {
    const plain = await env.client.completions.create({
      model: 'm',
      prompt: 'Stream me',
      ...RETURN_IDS,
    });
    const stream = await env.client.completions.create({
      model: 'm',
      prompt: 'Stream me',
      stream: true,
      stream_options: { include_usage: true },
      ...RETURN_IDS,
    });
    const chunks: Completion[] = [];
    for await (const c of stream) chunks.push(c);
    const choices = chunks.flatMap((c) => c.choices as Choice[]);
    expect(choices[0]!.prompt_token_ids).toEqual((plain.choices[0] as Choice).prompt_token_ids);
    expect(choices.slice(1).every((c) => c.prompt_token_ids === undefined)).toBe(true);
    expect(choices.map((c) => c.text).join('')).toBe(plain.choices[0]!.text);
    expect(choices.flatMap((c) => c.token_ids!)).toEqual((plain.choices[0] as Choice).token_ids);
    expect(choices.at(-1)!.finish_reason).toBe('stop');
    expect(chunks.at(-1)!.usage).toEqual(plain.usage);
  });

  it('answers several prompts, with token-id prompts too', async () => {
    const ids = tok.encode('from ids');
    const res = await env.client.completions.create({ model: 'm', prompt: [ids], ...RETURN_IDS });
    const choice = res.choices[0] as Choice;
    expect(choice.prompt_token_ids).toEqual(ids);
    expect(choice.text).toBe('Fixture answer to: from ids');
    const multi = await env.client.completions.create({ model: 'm', prompt: ['a', 'b'], n: 2 });
    expect(multi.choices.map((c) => c.index)).toEqual([0, 1, 2, 3]);
    expect(multi.choices.map((c) => c.text)).toEqual([
      'Fixture answer to: a',
      'Fixture answer to: a',
      'Fixture answer to: b',
      'Fixture answer to: b',
    ]);
  });
});
