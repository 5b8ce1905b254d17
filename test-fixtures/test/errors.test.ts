import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useFixtureLlm } from './helpers.js';

const env = useFixtureLlm({ recordings: false });
const messages = [{ role: 'user' as const, content: 'hi' }];

async function caught(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to fail');
}

describe('errors', () => {
  it('x-fixture-error header surfaces as the SDK APIError with that status', async () => {
    const err = await caught(
      env.client.chat.completions.create(
        { model: 'm', messages },
        { headers: { 'x-fixture-error': '429' } },
      ),
    );
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect((err as InstanceType<typeof OpenAI.APIError>).type).toBe('rate_limit_error');
  });

  it('model fixture-error-<status> fails every API, streaming included', async () => {
    const chat = await caught(
      env.client.chat.completions.create({ model: 'fixture-error-503', messages, stream: true }),
    );
    expect(chat).toBeInstanceOf(OpenAI.InternalServerError);
    expect((chat as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    const resp = await caught(
      env.client.responses.create({ model: 'fixture-error-401', input: 'x' }),
    );
    expect(resp).toBeInstanceOf(OpenAI.AuthenticationError);
    const legacy = await caught(
      env.client.completions.create({ model: 'fixture-error-400', prompt: 'x' }),
    );
    expect(legacy).toBeInstanceOf(OpenAI.BadRequestError);
    expect((legacy as Error).message).toContain(
      'Fixture error 400 requested via model fixture-error-400',
    );
  });

  it('malformed JSON is a 400 OpenAI-style error', async () => {
    const res = await fetch(`${env.llm.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"model": ',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; type: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toMatch(/Malformed JSON/);
  });

  it('invalid fields are 400 errors naming the field', async () => {
    const err = await caught(env.client.chat.completions.create({ model: 'm', messages: [] }));
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as Error).message).toContain('messages');
    const n = await caught(env.client.chat.completions.create({ model: 'm', messages, n: 0 }));
    expect((n as Error).message).toContain('n: expected an integer');
  });

  it('unknown paths are 404 and wrong methods 405', async () => {
    const res = await fetch(`${env.llm.baseUrl}/embeddings`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('not_found_error');
    const get = await fetch(`${env.llm.baseUrl}/chat/completions`);
    expect(get.status).toBe(405);
    const missing = await caught(env.client.models.retrieve('nope'));
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
  });
});
