import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import {
  BYTE_VOCAB_SIZE,
  FIXTURE_TOKENIZER_ENV,
  FixtureTokenizer,
  IM_END_ID,
  respond,
  startFixtureLlm,
} from '../src/index.js';
import {
  RETURN_IDS,
  useFixtureLlm,
  type VllmChoiceExtras,
  type VllmRootExtras,
  weatherTool,
} from './helpers.js';

type Plain = ChatCompletion &
  VllmRootExtras & { choices: (ChatCompletion.Choice & VllmChoiceExtras)[] };
type Chunk = ChatCompletionChunk &
  VllmRootExtras & { choices: (ChatCompletionChunk.Choice & VllmChoiceExtras)[] };

const tok = new FixtureTokenizer({ vocabulary: 'bytes' });

const samples = [
  '',
  'Hello, world!',
  'tabs\tand\nnew\r\nlines\n\n',
  'unicode: héllo wörld — 日本語 😀👍🏽',
  'specials <|im_start|>user\nhi<|im_end|> <tool_call>x</tool_call>',
  'lone surrogates \ud800 and \udfff here, a pair 😀',
  '<|im_end',
];

describe('FixtureTokenizer, bytes vocabulary', () => {
  it.each(samples)('round-trips %j with ids below 272', (text) => {
    const ids = tok.encode(text);
    expect(tok.decode(ids)).toBe(text);
    for (const id of ids) expect(id >= 0 && id < BYTE_VOCAB_SIZE).toBe(true);
    expect(tok.vocabSize).toBe(272);
    // Each token string maps back to its id.
    expect(tok.tokenize(text).map((t) => tok.tokenId(t))).toEqual(ids);
  });

  it('has one id per UTF-8 byte and keeps the special ids', () => {
    expect(tok.encode('é')).toEqual([...Buffer.from('é')].map((b) => 16 + b));
    expect(tok.tokenize('aé')).toEqual(['a', '\\xc3', '\\xa9']);
    expect(tok.encode('<|im_end|>')).toEqual([IM_END_ID]);
    expect(tok.encode('<|im_end|>', { allowSpecial: false })).toHaveLength(10);
    expect(tok.tokenBytes(16 + 0xc3)).toEqual([0xc3]);
  });

  it('groups the bytes of one character into one unit', () => {
    const ids = tok.encode('a😀b<|im_end|>');
    expect(tok.units(ids).map((u) => tok.decode(u))).toEqual(['a', '😀', 'b', '<|im_end|>']);
    // A cut character decodes to U+FFFD per byte instead of failing.
    expect(tok.decode(tok.encode('😀').slice(0, 2))).toBe('\ufffd\ufffd');
  });

  it('rejects ids and names outside the vocabulary', () => {
    expect(() => tok.decode([272])).toThrow(/not in the fixture vocabulary \(bytes\)/);
    expect(() => tok.decode([12])).toThrow(RangeError);
    expect(() => tok.tokenId('ab')).toThrow(/not a single fixture token/);
    expect(() => new FixtureTokenizer({ vocabulary: 'words' as unknown as 'bytes' })).toThrow(
      /unknown fixture tokenizer "words" \(expected one of chunks, bytes\)/,
    );
  });
});

describe('the fixture server with the bytes vocabulary', () => {
  const env = useFixtureLlm({
    recordings: false,
    tokenizer: 'bytes',
    responders: [respond('accents', 'Crème brûlée à 5 € 😀 — fin.')],
  });
  const messages = [{ role: 'user' as const, content: 'Say something with accents' }];

  it('serves byte ids: the prompt ids decode to the rendered prompt, the reply ids to the content', async () => {
    const res = (await env.client.chat.completions.create({
      model: 'fixture-model',
      messages,
      ...RETURN_IDS,
    })) as Plain;
    expect(env.llm.tokenizer.vocabulary).toBe('bytes');
    const prompt = res.prompt_token_ids!;
    expect(tok.decode(prompt)).toBe(tok.render(messages));
    const ids = res.choices[0]!.token_ids!;
    expect(tok.decode(ids)).toBe(`${res.choices[0]!.message.content}<|im_end|>`);
    for (const id of [...prompt, ...ids]) expect(id).toBeLessThan(BYTE_VOCAB_SIZE);
    expect(res.usage!.completion_tokens).toBe(ids.length);
  });

  it('streams whole characters: deltas concatenate to the content, ids to the plain ids', async () => {
    const plain = (await env.client.chat.completions.create({
      model: 'fixture-model',
      messages,
      ...RETURN_IDS,
    })) as Plain;
    const stream = await env.client.chat.completions.create({
      model: 'fixture-model',
      messages,
      stream: true,
      logprobs: true,
      ...RETURN_IDS,
    });
    let text = '';
    const ids: number[] = [];
    const logprobBytes: number[] = [];
    for await (const chunk of stream as AsyncIterable<Chunk>) {
      const choice = chunk.choices[0]!;
      const delta = choice.delta.content ?? '';
      expect(delta).not.toContain('\ufffd');
      text += delta;
      ids.push(...(choice.token_ids ?? []));
      for (const entry of choice.logprobs?.content ?? []) logprobBytes.push(...entry.bytes!);
    }
    expect(text).toBe(plain.choices[0]!.message.content);
    expect(ids).toEqual(plain.choices[0]!.token_ids);
    // The logprob entries' bytes are the reply's bytes (one entry per id).
    expect(Buffer.from(logprobBytes).toString('utf8')).toBe(`${text}<|im_end|>`);
  });

  it('keeps Token-In-Token-Out across a tool call: prompt + reply ids prefix the next prompt', async () => {
    const first = (await env.client.chat.completions.create({
      model: 'fixture-tools',
      messages: [{ role: 'user', content: 'Weather in Zürich?' }],
      tools: [weatherTool],
      ...RETURN_IDS,
    })) as Plain;
    const reply = first.choices[0]!.message;
    const call = reply.tool_calls![0]!;
    const second = (await env.client.chat.completions.create({
      model: 'fixture-tools',
      messages: [
        { role: 'user', content: 'Weather in Zürich?' },
        { role: 'assistant', content: reply.content, tool_calls: reply.tool_calls },
        { role: 'tool', tool_call_id: call.id, content: 'sunny, 21 °C' },
      ],
      tools: [weatherTool],
      ...RETURN_IDS,
    })) as Plain;
    const row = [...first.prompt_token_ids!, ...first.choices[0]!.token_ids!];
    expect(second.prompt_token_ids!.slice(0, row.length)).toEqual(row);
  });

  it('legacy completions: text offsets count characters, every byte of a character shares one', async () => {
    const res = await env.client.completions.create({
      model: 'fixture-model',
      prompt: 'Say something with accents',
      max_tokens: 64,
      logprobs: 0,
    });
    const lp = res.choices[0]!.logprobs!;
    const text = res.choices[0]!.text;
    const at = text.indexOf('è');
    const offsets = lp.text_offset!;
    const start = offsets.indexOf(at);
    expect(offsets.slice(start, start + 3)).toEqual([at, at, at + 1]);
  });
});

describe('choosing the vocabulary', () => {
  it(`${FIXTURE_TOKENIZER_ENV} picks the default; a bad value is an error naming the variable`, async () => {
    const saved = process.env[FIXTURE_TOKENIZER_ENV];
    try {
      process.env[FIXTURE_TOKENIZER_ENV] = 'bytes';
      const llm = await startFixtureLlm({ recordings: false });
      expect(llm.tokenizer.vocabulary).toBe('bytes');
      await llm.close();
      process.env[FIXTURE_TOKENIZER_ENV] = 'byte';
      await expect(startFixtureLlm({ recordings: false })).rejects.toThrow(
        /ARCLIGHT_FIXTURE_TOKENIZER: unknown fixture tokenizer "byte"/,
      );
    } finally {
      if (saved === undefined) delete process.env[FIXTURE_TOKENIZER_ENV];
      else process.env[FIXTURE_TOKENIZER_ENV] = saved;
    }
  });

  it('the CLI rejects an unknown --tokenizer with exit code 2', async () => {
    const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
    const run = promisify(execFile);
    await expect(run(process.execPath, [bin, '--tokenizer', 'words'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--tokenizer: unknown fixture tokenizer "words"'),
    });
  });
});
