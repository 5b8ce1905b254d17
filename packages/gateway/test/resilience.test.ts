import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LightningStoreClient } from '@arclight/client';
import { createLightningStoreServer, type LightningStoreServer } from '@arclight/server';
import { InMemoryLightningStore } from '@arclight/store';
import { type FixtureLlm, respond, startFixtureLlm } from '@arclight/test-fixtures';
import { freePort } from '@arclight/test-fixtures/python';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayAttributes, type LlmGateway, startGateway } from '../src/index.js';
import { llmSpan, newRollout, spansOf, waitFor } from './support.js';

const messages = [{ role: 'user' as const, content: 'Hello there' }];
const quiet = () => undefined;

let good: FixtureLlm;
let failing: FixtureLlm;
let slow: FixtureLlm;
const cleanup: Array<() => Promise<void>> = [];

beforeAll(async () => {
  good = await startFixtureLlm();
  failing = await startFixtureLlm({
    responders: [
      respond(() => true, { error: { status: 503, message: 'backend overloaded (injected)' } }),
    ],
  });
  slow = await startFixtureLlm({ latencyMs: 400, chunkDelayMs: 150 });
});

afterAll(async () => {
  for (const close of cleanup.reverse()) await close();
  await Promise.all([good?.close(), failing?.close(), slow?.close()]);
});

async function gatewayWith(
  options: Partial<Parameters<typeof startGateway>[0]>,
  store = new InMemoryLightningStore(),
): Promise<{ gateway: LlmGateway; store: InMemoryLightningStore }> {
  const gateway = await startGateway({
    backends: [{ url: good.baseUrl }],
    store,
    healthCheckIntervalMs: 0,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    logger: quiet,
    ...options,
  });
  cleanup.push(() => gateway.stop());
  return { gateway, store };
}

function client(
  gateway: LlmGateway,
  ids?: { rolloutId: string; attemptId: string },
  apiKey = 'unused',
) {
  return new OpenAI({
    baseURL: gateway.baseUrl(ids?.rolloutId, ids?.attemptId),
    apiKey,
    maxRetries: 0,
  });
}

describe('backends: failover, retries, timeouts', () => {
  it('fails over from a 503 backend to a healthy one and records the backend that answered', async () => {
    const { gateway, store } = await gatewayWith({
      backends: [{ url: failing.baseUrl }, { url: good.baseUrl }],
    });
    failing.reset();
    good.reset();
    const ids = await Promise.all(Array.from({ length: 10 }, () => newRollout(store)));
    const answers = await Promise.all(
      ids.map((id) =>
        client(gateway, id).chat.completions.create({ model: 'fixture-model', messages }),
      ),
    );
    expect(
      answers.every((a) => a.choices[0]?.message.content === 'Fixture answer to: Hello there'),
    ).toBe(true);
    expect(good.requests).toHaveLength(10);
    expect(failing.requests.length).toBeGreaterThan(0);
    for (const id of ids) {
      const span = llmSpan(await spansOf(gateway, store, id.rolloutId));
      expect(span.attributes[GatewayAttributes.BACKEND]).toBe(good.baseUrl);
      expect(span.status.status_code).toBe('OK');
    }
  });

  it('retries connection errors on another backend and marks the dead one unhealthy', async () => {
    const deadPort = await freePort();
    const dead = `http://127.0.0.1:${deadPort}/v1`;
    const { gateway } = await gatewayWith({ backends: [{ url: dead }, { url: good.baseUrl }] });
    for (let i = 0; i < 4; i++) {
      const res = await client(gateway).chat.completions.create({
        model: 'fixture-model',
        messages,
      });
      expect(res.choices[0]?.message.content).toContain('Fixture answer');
    }
    const health = (await (await fetch(`${gateway.url}/gateway/state`)).json()) as {
      backends: { url: string; healthy: boolean }[];
    };
    expect(health.backends.find((b) => b.url === dead)?.healthy).toBe(false);
  });

  it('passes the last backend error through with its status when retries run out', async () => {
    const { gateway } = await gatewayWith({
      backends: [{ url: failing.baseUrl }],
      retry: { maxRetries: 2, baseDelayMs: 1 },
    });
    failing.reset();
    const error = await client(gateway)
      .chat.completions.create({ model: 'fixture-model', messages })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    expect((error as Error).message).toContain('backend overloaded (injected)');
    expect(failing.requests).toHaveLength(3);
  });

  it('passes 4xx errors through unretried and records them as failed calls', async () => {
    const { gateway, store } = await gatewayWith({});
    good.reset();
    const ids = await newRollout(store);
    const error = await client(gateway, ids)
      .chat.completions.create({ model: 'fixture-error-400', messages })
      .catch((e: unknown) => e);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    expect(good.requests).toHaveLength(1);
    const span = llmSpan(await spansOf(gateway, store, ids.rolloutId));
    expect(span.status.status_code).toBe('ERROR');
    expect(span.attributes[GatewayAttributes.HTTP_STATUS]).toBe(400);
  });

  it('never retries after the first streamed byte', async () => {
    let hits = 0;
    const broken: Server = createServer((req, res) => {
      hits++;
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', prompt_token_ids: [1, 2], choices: [{ index: 0, delta: { role: 'assistant', content: 'Hal' }, token_ids: [7], finish_reason: null }] })}\n\n`,
        () => setTimeout(() => res.destroy(), 30),
      );
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise((resolve) => broken.close(() => resolve())));
    const url = `http://127.0.0.1:${(broken.address() as AddressInfo).port}/v1`;
    // Alone, so that a retry (there must be none) would come back to it.
    const { gateway, store } = await gatewayWith({
      backends: [{ url }],
      retry: { maxRetries: 2, baseDelayMs: 1 },
    });
    const ids = await newRollout(store);
    const res = await fetch(`${gateway.baseUrl(ids.rolloutId, ids.attemptId)}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages, stream: true }),
    });
    const text = await res.text().catch(() => '');
    expect(text).toContain('"Hal"');
    expect(hits).toBe(1);
    const span = await waitFor('the partial span', async () => {
      const spans = await spansOf(gateway, store, ids.rolloutId);
      return spans.find((s) => s.name === 'openai.chat.completion');
    });
    expect(span.attributes[GatewayAttributes.STREAM_PARTIAL]).toBe(true);
    expect(span.attributes.response_token_ids).toEqual([7]);
  });

  it('answers 504 when a backend exceeds the request timeout', async () => {
    const { gateway } = await gatewayWith({
      backends: [{ url: slow.baseUrl }],
      requestTimeoutMs: 100,
      retry: { maxRetries: 0 },
    });
    const error = await client(gateway)
      .chat.completions.create({ model: 'fixture-model', messages })
      .catch((e: unknown) => e);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(504);
  });

  it('ends a stream at the duration limit and marks its span partial', async () => {
    const { gateway, store } = await gatewayWith({
      backends: [{ url: slow.baseUrl }],
      streamTimeoutMs: 700,
    });
    const ids = await newRollout(store);
    const stream = await client(gateway, ids).chat.completions.create({
      model: 'fixture-model',
      messages: [
        {
          role: 'user',
          content: 'a long question with many words so that the answer takes a while',
        },
      ],
      stream: true,
    });
    await (async () => {
      for await (const _ of stream) {
        // drain until the gateway ends it
      }
    })().catch(() => undefined);
    const span = llmSpan(await spansOf(gateway, store, ids.rolloutId));
    expect(span.attributes[GatewayAttributes.STREAM_END_REASON]).toBe('timeout');
  });

  it('ends the span of a stream the client abandons', async () => {
    const { gateway, store } = await gatewayWith({ backends: [{ url: slow.baseUrl }] });
    const ids = await newRollout(store);
    const abort = new AbortController();
    const stream = await client(gateway, ids).chat.completions.create(
      { model: 'fixture-model', messages, stream: true },
      { signal: abort.signal },
    );
    await (async () => {
      for await (const _ of stream) abort.abort();
    })().catch(() => undefined);
    const span = await waitFor('the abandoned stream span', async () => {
      await gateway.tracer.flush(5_000);
      return (await store.querySpans(ids.rolloutId)).items.find(
        (s) => s.name === 'openai.chat.completion',
      );
    });
    expect(span.attributes[GatewayAttributes.STREAM_END_REASON]).toBe('abandoned');
    expect(gateway.state().in_flight).toBe(0);
  });
});

describe('pause / resume', () => {
  it('holds new calls while paused and lets them run on resume', async () => {
    const { gateway } = await gatewayWith({});
    good.reset();
    await gateway.pause({ drain: false });
    const call = client(gateway).chat.completions.create({ model: 'fixture-model', messages });
    await waitFor('a queued call', () => gateway.state().queued === 1);
    expect(good.requests).toHaveLength(0);
    expect(gateway.resume()).toMatchObject({ paused: false });
    expect((await call).choices[0]?.message.content).toContain('Fixture answer');
  });

  it('rejects with 429 + Retry-After in reject mode, over the HTTP admin routes', async () => {
    const { gateway } = await gatewayWith({ pauseRetryAfterSeconds: 3 });
    const paused = await fetch(`${gateway.url}/gateway/pause?mode=reject`, { method: 'POST' });
    expect(await paused.json()).toMatchObject({ paused: true, mode: 'reject' });
    const res = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'fixture-model', messages }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(res.headers.get('x-arclight-paused')).toBe('true');
    await fetch(`${gateway.url}/gateway/resume`, { method: 'POST' });
    expect(await (await fetch(`${gateway.url}/gateway/state`)).json()).toMatchObject({
      paused: false,
    });
    const ok = await client(gateway).chat.completions.create({ model: 'fixture-model', messages });
    expect(ok.choices).toHaveLength(1);
  });

  it('pause() resolves once in-flight calls have drained', async () => {
    const { gateway } = await gatewayWith({ backends: [{ url: slow.baseUrl }] });
    let finished = false;
    const call = client(gateway)
      .chat.completions.create({ model: 'fixture-model', messages })
      .then(() => {
        finished = true;
      });
    await waitFor('the call in flight', () => gateway.state().in_flight === 1);
    const state = await gateway.pause();
    expect(state.in_flight).toBe(0);
    await call;
    expect(finished).toBe(true);
    gateway.resume();
  });
});

describe('security and malformed calls', () => {
  it('requires the gateway token and sends the backend key, which is never recorded', async () => {
    const { gateway, store } = await gatewayWith({
      token: 'gw-secret',
      backends: [{ url: good.baseUrl, apiKey: 'sk-backend-key' }],
    });
    good.reset();
    const denied = await client(gateway)
      .chat.completions.create({ model: 'fixture-model', messages })
      .catch((e: unknown) => e);
    expect((denied as InstanceType<typeof OpenAI.APIError>).status).toBe(401);
    const ids = await newRollout(store);
    await client(gateway, ids, 'gw-secret').chat.completions.create({
      model: 'fixture-model',
      messages,
    });
    expect(good.requests.at(-1)?.headers.authorization).toBe('Bearer sk-backend-key');
    const spans = await spansOf(gateway, store, ids.rolloutId);
    expect(JSON.stringify(spans)).not.toContain('sk-backend-key');
    const viaApiKey = await fetch(`${gateway.url}/v1/models`, {
      headers: { 'x-api-key': 'gw-secret' },
    });
    expect(viaApiKey.status).toBe(200);
  });

  it('answers clear 4xx for malformed calls', async () => {
    const { gateway } = await gatewayWith({ bodyLimit: 2_000, outsideRollout: 'reject' });
    const post = (path: string, body: string) =>
      fetch(`${gateway.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    const prefix = '/rollout/r1/attempt/a1/v1';
    const cases: Array<[Response, number, string]> = [
      [await post(`${prefix}/chat/completions`, '{not json'), 400, 'not valid JSON'],
      [
        await post(`${prefix}/chat/completions`, JSON.stringify({ messages })),
        400,
        'model: expected',
      ],
      [
        await post(
          `${prefix}/chat/completions`,
          JSON.stringify({ model: 'm', messages, pad: 'x'.repeat(3_000) }),
        ),
        413,
        'exceeds',
      ],
      [await post(`${prefix}/embeddings`, '{}'), 404, 'unknown route'],
      [await fetch(`${gateway.url}${prefix}/chat/completions`), 405, 'not allowed'],
      [
        await post('/v1/chat/completions', JSON.stringify({ model: 'm', messages })),
        400,
        'inside a rollout',
      ],
    ];
    for (const [res, status, text] of cases) {
      expect(res.status).toBe(status);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).toContain(text);
    }
  });
});

describe('logprobs', () => {
  it('asks the backend for logprobs when configured and records them with the token ids', async () => {
    const { gateway, store } = await gatewayWith({ requestLogprobs: true });
    good.reset();
    const ids = await newRollout(store);
    const stream = await client(gateway, ids).chat.completions.create({
      model: 'fixture-model',
      messages,
      stream: true,
    });
    for await (const _ of stream) {
      // drain
    }
    expect(good.requests.at(-1)?.body).toMatchObject({ logprobs: true, return_token_ids: true });
    const span = llmSpan(await spansOf(gateway, store, ids.rolloutId));
    const logprobs = JSON.parse(span.attributes['logprobs.content'] as string) as {
      logprob: number;
    }[];
    expect(logprobs).toHaveLength((span.attributes.response_token_ids as number[]).length);
    expect(logprobs.every((l) => l.logprob <= 0)).toBe(true);
  });
});

describe('span delivery', () => {
  it('writes spans over OTLP to a store server, and a store outage never fails a call', async () => {
    const store = new InMemoryLightningStore();
    const server: LightningStoreServer = createLightningStoreServer(store, { port: 0 });
    const url = await server.listen();
    cleanup.push(() => server.close());
    const { gateway } = await gatewayWith({ store: new LightningStoreClient(url) }, store);
    const ids = await newRollout(store);
    await client(gateway, ids).chat.completions.create({
      model: 'fixture-model',
      messages,
      stream: true,
    });
    const span = await waitFor('the span over OTLP', async () => {
      await gateway.tracer.flush(5_000);
      return (await store.querySpans(ids.rolloutId)).items.find(
        (s) => s.name === 'openai.chat.completion',
      );
    });
    expect(span.sequence_id).toBeGreaterThan(0);

    const deadPort = await freePort();
    const { gateway: orphan } = await gatewayWith({
      otlpEndpoint: `http://127.0.0.1:${deadPort}`,
      store: null,
    });
    for (let i = 0; i < 3; i++) {
      const res = await client(orphan, { rolloutId: 'r', attemptId: 'a' }).chat.completions.create({
        model: 'fixture-model',
        messages,
      });
      expect(res.choices[0]?.message.content).toContain('Fixture answer');
    }
    expect(orphan.tracer.stats.exported).toBe(0);
  });
});
