import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { respond, startFixtureLlm } from '../src/index.js';
import { useFixtureLlm } from './helpers.js';

const env = useFixtureLlm({
  recordings: false,
  responders: [
    respond(/capital of (\w+)/, (req) => `The capital is ${req.lastUserText.length} letters away.`),
    {
      name: 'counter',
      match: (req) => req.model === 'counter',
      reply: (_req, ctx) => ({ content: `call ${ctx.callIndex} choice ${ctx.choiceIndex}` }),
    },
  ],
});
const ask = (content: string, model = 'm') =>
  env.client.chat.completions.create({ model, messages: [{ role: 'user', content }] });

describe('server', () => {
  it('lists models', async () => {
    const models = await env.client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['fixture-model', 'fixture-tools']);
    expect((await env.client.models.retrieve('fixture-tools')).id).toBe('fixture-tools');
  });

  it('logs every request with path, body and headers', async () => {
    await ask('hello');
    await env.client.models.list();
    expect(env.llm.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/chat/completions',
      'GET /v1/models',
    ]);
    const first = env.llm.requests[0]!;
    expect(first.body).toMatchObject({
      model: 'm',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(first.headers.authorization).toBe('Bearer test-key');
    env.llm.reset();
    expect(env.llm.requests).toEqual([]);
  });

  it('tries configured responders before the built-in echo', async () => {
    const res = await ask('What is the capital of Peru?');
    expect(res.choices[0]!.message.content).toBe('The capital is 28 letters away.');
    expect((await ask('something else')).choices[0]!.message.content).toBe(
      'Fixture answer to: something else',
    );
  });

  it('gives responders a call counter that reset() rewinds', async () => {
    expect((await ask('x', 'counter')).choices[0]!.message.content).toBe('call 0 choice 0');
    expect((await ask('x', 'counter')).choices[0]!.message.content).toBe('call 1 choice 0');
    env.llm.reset();
    expect((await ask('x', 'counter')).choices[0]!.message.content).toBe('call 0 choice 0');
  });

  it('use() adds responders in front until reset()', async () => {
    env.llm.use(respond('Peru', { content: 'Lima' }));
    expect((await ask('capital of Peru')).choices[0]!.message.content).toBe('Lima');
    expect(env.llm.responders.map((r) => r.name)[1]).toBe('respond(Peru)');
    env.llm.reset();
    expect((await ask('capital of Peru')).choices[0]!.message.content).not.toBe('Lima');
  });

  it('lets responders reply with errors', async () => {
    env.llm.use(respond('boom', { error: { status: 422, message: 'nope', code: 'bad_thing' } }));
    const err = await ask('boom').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.UnprocessableEntityError);
    expect((err as InstanceType<typeof OpenAI.APIError>).code).toBe('bad_thing');
  });

  it('replays recorded chat completions by messages + model', async () => {
    const llm = await startFixtureLlm();
    try {
      const client = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'k', maxRetries: 0 });
      const res = await client.chat.completions.create({
        model: 'gpt-4.1-mini',
        messages: [{ content: 'What is the capital of France?', role: 'user' }],
      });
      expect(res.choices[0]!.message.content).toBe('The capital of France is Paris.');
      expect(res.usage?.completion_tokens).toBe(
        llm.tokenizer.encode('The capital of France is Paris.').length + 1,
      );
      const other = await client.chat.completions.create({
        model: 'gpt-4.1-nano',
        messages: [{ role: 'user', content: 'What is the capital of France?' }],
      });
      expect(other.choices[0]!.message.content).toBe(
        'Fixture answer to: What is the capital of France?',
      );
    } finally {
      await llm.close();
    }
    const off = await startFixtureLlm({ recordings: false });
    try {
      const client = new OpenAI({ baseURL: off.baseUrl, apiKey: 'k', maxRetries: 0 });
      const res = await client.chat.completions.create({
        model: 'gpt-4.1-mini',
        messages: [{ role: 'user', content: 'What is the capital of France?' }],
      });
      expect(res.choices[0]!.message.content).toBe(
        'Fixture answer to: What is the capital of France?',
      );
    } finally {
      await off.close();
    }
  });

  it('keeps answers identical with latency and per-chunk delays', async () => {
    const slow = await startFixtureLlm({ recordings: false, latencyMs: 2, chunkDelayMs: 1 });
    try {
      const client = new OpenAI({ baseURL: slow.baseUrl, apiKey: 'k', maxRetries: 0 });
      const stream = await client.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'slowly' }],
        stream: true,
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe('Fixture answer to: slowly');
    } finally {
      await slow.close();
    }
  });

  it('runs as a CLI that prints its base URL', async () => {
    const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
    const child = spawn(process.execPath, [bin, '--port', '0', '--no-recordings'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const lines = createInterface({ input: child.stdout! });
      const [line] = (await once(lines, 'line')) as [string];
      expect(line).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const client = new OpenAI({ baseURL: line, apiKey: 'k', maxRetries: 0 });
      const res = await client.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'cli' }],
      });
      expect(res.choices[0]!.message.content).toBe('Fixture answer to: cli');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});
