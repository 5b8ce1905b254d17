import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { ECHO_PREFIX, FixtureTokenizer, IM_END_ID } from '../src/index.js';
import {
  RETURN_IDS,
  useFixtureLlm,
  type VllmChoiceExtras,
  type VllmRootExtras,
} from './helpers.js';

type Plain = ChatCompletion &
  VllmRootExtras & { choices: (ChatCompletion.Choice & VllmChoiceExtras)[] };
type Chunk = ChatCompletionChunk &
  VllmRootExtras & { choices: (ChatCompletionChunk.Choice & VllmChoiceExtras)[] };

const env = useFixtureLlm({ recordings: false });
const tok = new FixtureTokenizer();
const messages = [
  { role: 'system' as const, content: 'You are terse.' },
  { role: 'user' as const, content: 'What is the capital of Atlantis?' },
];

async function plain(extra: Record<string, unknown> = {}): Promise<Plain> {
  return (await env.client.chat.completions.create({
    model: 'fixture-model',
    messages,
    ...RETURN_IDS,
    ...extra,
  })) as Plain;
}

async function streamed(extra: Record<string, unknown> = {}): Promise<Chunk[]> {
  const stream = await env.client.chat.completions.create({
    model: 'fixture-model',
    messages,
    stream: true,
    ...RETURN_IDS,
    ...extra,
  });
  const chunks: Chunk[] = [];
  for await (const chunk of stream) chunks.push(chunk as Chunk);
  return chunks;
}

describe('POST /v1/chat/completions', () => {
  it('answers with the echo reply, token ids and consistent usage', async () => {
    const res = await plain();
    const choice = res.choices[0]!;
    expect(res.object).toBe('chat.completion');
    expect(choice.message.content).toBe(`${ECHO_PREFIX}What is the capital of Atlantis?`);
    expect(choice.finish_reason).toBe('stop');
    expect(res.prompt_token_ids).toEqual(tok.encode(tok.render(messages)));
    expect(res.usage?.prompt_tokens).toBe(res.prompt_token_ids!.length);
    expect(res.usage?.completion_tokens).toBe(choice.token_ids!.length);
    expect(res.usage?.total_tokens).toBe(res.prompt_token_ids!.length + choice.token_ids!.length);
    expect(choice.token_ids!.at(-1)).toBe(IM_END_ID);
    expect(tok.decode(choice.token_ids!)).toBe(`${choice.message.content}<|im_end|>`);
    expect(env.llm.tokenizer.decode(res.prompt_token_ids!)).toBe(tok.render(messages));
  });

  it('omits token ids unless return_token_ids is set', async () => {
    const res = (await env.client.chat.completions.create({ model: 'm', messages })) as Plain;
    expect(res.prompt_token_ids).toBeUndefined();
    expect(res.choices[0]!.token_ids).toBeUndefined();
    expect(res.choices[0]!.logprobs).toBeNull();
  });

  it('streams deltas whose ids concatenate to the plain token ids', async () => {
    const res = await plain();
    const chunks = await streamed({ stream_options: { include_usage: true } });
    expect(chunks.length).toBeGreaterThan(4);
    expect(chunks[0]!.prompt_token_ids).toEqual(res.prompt_token_ids);
    expect(chunks.slice(1).every((c) => c.prompt_token_ids === undefined)).toBe(true);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    const body = chunks.filter((c) => c.choices.length > 0);
    const ids = body.flatMap((c) => c.choices[0]!.token_ids ?? []);
    const text = body.map((c) => c.choices[0]!.delta.content ?? '').join('');
    expect(ids).toEqual(res.choices[0]!.token_ids);
    expect(text).toBe(res.choices[0]!.message.content);
    for (const c of body) {
      const delta = c.choices[0]!.delta.content;
      if (delta) expect(tok.decode(c.choices[0]!.token_ids!)).toBe(delta);
    }
    expect(body.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    const usageChunk = chunks.at(-1)!;
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage).toEqual(res.usage);
  });

  it('sends no usage chunk without stream_options.include_usage', async () => {
    const chunks = await streamed();
    expect(chunks.every((c) => c.choices.length === 1 && !c.usage)).toBe(true);
  });

  it('returns one deterministic logprob entry per completion token', async () => {
    const res = await plain({ logprobs: true, top_logprobs: 3 });
    const choice = res.choices[0]!;
    const entries = choice.logprobs!.content!;
    expect(entries).toHaveLength(choice.token_ids!.length);
    entries.forEach((e, i) => {
      expect(e.token).toBe(tok.decode([choice.token_ids![i]!]));
      expect(e.bytes).toEqual([...Buffer.from(e.token)]);
      expect(e.logprob).toBeLessThanOrEqual(0);
      expect(e.top_logprobs).toHaveLength(3);
      expect(e.top_logprobs[0]).toEqual({ token: e.token, logprob: e.logprob, bytes: e.bytes });
      expect(e.top_logprobs[1]!.logprob).toBeLessThan(e.logprob);
    });
    const again = await plain({ logprobs: true, top_logprobs: 3 });
    expect(again.choices[0]!.logprobs).toEqual(choice.logprobs);
    const chunks = await streamed({ logprobs: true, top_logprobs: 3 });
    const streamedEntries = chunks.flatMap((c) => c.choices[0]?.logprobs?.content ?? []);
    expect(streamedEntries).toEqual(entries);
  });

  it('truncates at max_tokens with finish_reason "length"', async () => {
    const res = await plain({ max_completion_tokens: 5 });
    const choice = res.choices[0]!;
    expect(choice.finish_reason).toBe('length');
    expect(choice.token_ids).toHaveLength(5);
    expect(choice.token_ids).not.toContain(IM_END_ID);
    expect(choice.message.content).toBe(tok.decode(choice.token_ids!));
    expect(ECHO_PREFIX.startsWith(choice.message.content!)).toBe(true);
    const legacy = await plain({ max_tokens: 3 });
    expect(legacy.usage?.completion_tokens).toBe(3);
  });

  it('cuts the answer at a stop string', async () => {
    const res = await plain({ stop: [' to:'] });
    const choice = res.choices[0]!;
    expect(choice.message.content).toBe('Fixture answer');
    expect(choice.finish_reason).toBe('stop');
    expect(choice.stop_reason).toBe(' to:');
  });

  it('returns n choices', async () => {
    const res = await plain({ n: 2 });
    expect(res.choices.map((c) => c.index)).toEqual([0, 1]);
    expect(res.usage?.completion_tokens).toBe(res.choices[0]!.token_ids!.length * 2);
  });

  it('is deterministic: after reset() the same request gives identical bytes', async () => {
    const body = JSON.stringify({ model: 'm', messages, ...RETURN_IDS, logprobs: true });
    const post = async () =>
      (
        await fetch(`${env.llm.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        })
      ).text();
    const first = await post();
    env.llm.reset();
    expect(await post()).toBe(first);
  });
});
