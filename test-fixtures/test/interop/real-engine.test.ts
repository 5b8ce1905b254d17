// The real-engine server on the real model: every id it reports is what the model consumed or sampled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RealEngine, startRealEngine } from '../../src/real-engine/index.js';

let engine: RealEngine;

beforeAll(async () => {
  engine = await startRealEngine();
}, 600_000);

afterAll(async () => {
  await engine?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: wire JSON read field by field in assertions
type Json = Record<string, any>;

async function post(path: string, body: Json): Promise<Response> {
  return fetch(`${engine.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function chat(body: Json): Promise<Json> {
  const res = await post('/chat/completions', body);
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
}

/** Reads an SSE stream into its `data:` objects. */
async function events(res: Response): Promise<Json[]> {
  const text = await res.text();
  expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: {'))
    .map((l) => JSON.parse(l.slice(6)) as Json);
}

const question = {
  model: 'SmolLM2-135M-Instruct',
  messages: [{ role: 'user', content: 'Name two colours of the rainbow.' }],
  max_tokens: 24,
  temperature: 0,
  return_token_ids: true,
  logprobs: true,
  top_logprobs: 2,
};

const startsWith = (whole: number[], prefix: number[]) =>
  prefix.length <= whole.length && prefix.every((id, i) => whole[i] === id);

describe('real engine (SmolLM2-135M-Instruct on node-llama-cpp)', () => {
  it('reports the prompt it consumed and the ids it sampled, with their logprobs', async () => {
    const reply = await chat(question);
    const choice = reply.choices[0];
    const prompt: number[] = reply.prompt_token_ids;
    const ids: number[] = choice.token_ids;
    // The prompt ids are the GGUF template's rendering of the messages, special tokens included.
    const rendered = engine.model.render(
      [{ role: 'user', content: 'Name two colours of the rainbow.' }],
      true,
    );
    expect(engine.model.detokenize(prompt)).toBe(rendered);
    expect(rendered).toContain('<|im_start|>assistant\n');
    // vLLM's /tokenize gives the same ids for the same messages.
    const tokenized = await fetch(`${engine.url}/tokenize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: question.messages }),
    });
    expect(((await tokenized.json()) as Json).tokens).toEqual(prompt);
    expect(ids.length).toBeGreaterThan(0);
    expect(reply.usage).toEqual({
      prompt_tokens: prompt.length,
      completion_tokens: ids.length,
      total_tokens: prompt.length + ids.length,
    });
    // One logprob per sampled id; greedy picks the most likely alternative.
    expect(choice.logprobs.content).toHaveLength(ids.length);
    for (const entry of choice.logprobs.content) {
      expect(entry.logprob).toBeLessThanOrEqual(0);
      expect(entry.top_logprobs).toHaveLength(2);
      expect(entry.logprob).toBeCloseTo(entry.top_logprobs[0].logprob, 5);
    }
    // The text is the detokenized ids (a stop id ends the reply and is reported, as vLLM does).
    if (choice.finish_reason === 'stop') {
      expect(engine.model.isStop(ids.at(-1)!)).toBe(true);
      expect(engine.model.detokenize(ids.slice(0, -1))).toBe(choice.message.content);
    } else {
      expect(choice.finish_reason).toBe('length');
      expect(ids).toHaveLength(question.max_tokens);
      expect(engine.model.detokenize(ids)).toBe(choice.message.content);
    }
  }, 300_000);

  it('streams the same ids, text and logprobs as the non-streaming call (greedy)', async () => {
    const plain = await chat(question);
    const res = await post('/chat/completions', {
      ...question,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const chunks = await events(res);
    expect(chunks[0]!.prompt_token_ids).toEqual(plain.prompt_token_ids);
    const ids = chunks.flatMap((c) => c.choices[0]?.token_ids ?? []);
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    const logprobs = chunks.flatMap((c) => c.choices[0]?.logprobs?.content ?? []);
    expect(ids).toEqual(plain.choices[0].token_ids);
    expect(text).toBe(plain.choices[0].message.content);
    expect(logprobs.map((l: Json) => l.logprob)).toEqual(
      plain.choices[0].logprobs.content.map((l: Json) => l.logprob),
    );
    const finish = chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean);
    expect(finish).toEqual([plain.choices[0].finish_reason]);
    expect(chunks.at(-1)!.usage).toEqual(plain.usage);
  }, 300_000);

  it('takes token ids in: completions on the chat prompt ids continue exactly as the chat call', async () => {
    const plain = await chat(question);
    const res = await post('/completions', {
      model: 'SmolLM2-135M-Instruct',
      prompt: plain.prompt_token_ids,
      max_tokens: question.max_tokens,
      temperature: 0,
      return_token_ids: true,
      logprobs: 1,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.choices[0].prompt_token_ids).toEqual(plain.prompt_token_ids);
    expect(body.choices[0].token_ids).toEqual(plain.choices[0].token_ids);
    expect(body.choices[0].logprobs.tokens).toHaveLength(body.choices[0].token_ids.length);
  }, 300_000);

  it('keeps a turn as a token prefix of the next turn exactly when the reply re-tokenizes to the sampled ids', async () => {
    const first = await chat({ ...question, temperature: 1, seed: 7, max_tokens: 32 });
    const reply = first.choices[0].message.content as string;
    const sampled: number[] = first.choices[0].token_ids;
    const next = await chat({
      ...question,
      max_tokens: 1,
      messages: [
        ...question.messages,
        { role: 'assistant', content: reply },
        { role: 'user', content: 'And one more?' },
      ],
    });
    const turn = [...first.prompt_token_ids, ...sampled];
    const retokenized = engine.model.tokenize(reply);
    const contentIds = first.choices[0].finish_reason === 'stop' ? sampled.slice(0, -1) : sampled;
    const sameTokens =
      retokenized.length === contentIds.length &&
      retokenized.every((id, i) => id === contentIds[i]);
    // The template writes the reply back as its text (and a stopped reply's <|im_end|> after it): the turn stays a
    // prefix of the next prompt exactly when that text re-tokenizes to the ids the model sampled.
    expect(startsWith(next.prompt_token_ids, turn)).toBe(sameTokens);
    expect(startsWith(next.prompt_token_ids, first.prompt_token_ids)).toBe(true);
  }, 300_000);

  it('renders offered tools into the system prompt and tool calls in history back as <tool_call> text', async () => {
    const tools = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather of a city',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
          },
        },
      },
    ];
    const reply = await chat({
      ...question,
      max_tokens: 8,
      tools,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny, 21 C' },
      ],
    });
    const prompt = engine.model.detokenize(reply.prompt_token_ids);
    expect(prompt).toContain('<tools>\n{"type":"function","function":{"name":"get_weather"');
    expect(prompt).toContain(
      '<|im_start|>assistant\n<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call><|im_end|>',
    );
    expect(prompt).toContain('<|im_start|>tool\nsunny, 21 C<|im_end|>');
  }, 300_000);

  it('answers malformed calls with a 400 naming the field', async () => {
    const cases: [Json, string][] = [
      [{ messages: [] }, 'messages'],
      [{ messages: question.messages, max_tokens: -1 }, 'max_tokens'],
      [{ messages: question.messages, n: 2 }, 'n'],
    ];
    for (const [body, param] of cases) {
      const res = await post('/chat/completions', body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as Json).error.param).toBe(param);
    }
    const res = await post('/completions', { prompt: [1, 'x'] });
    expect(res.status).toBe(400);
  }, 60_000);
});
