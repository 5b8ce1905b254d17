import { SpanStatusCode, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { instrumentOpenAI } from '../src/index.js';
import { attributesOf, onlySpan, SDKS, useHarness } from './helpers.js';

describe.each(SDKS)('errors ($name)', (sdk) => {
  const h = useHarness(sdk);

  it('records an HTTP error with status ERROR and rethrows the SDK error unchanged', async () => {
    const call = h.client().chat.completions.create({
      model: 'fixture-error-500',
      messages: [{ role: 'user', content: 'fail please' }],
    });
    const error = await call.catch((e: unknown) => e);

    expect(error).toBeInstanceOf(sdk.OpenAI.InternalServerError);
    expect((error as InstanceType<typeof sdk.OpenAI.APIError>).status).toBe(500);
    const span = onlySpan(h.exporter, 'openai.chat.completion');
    expect(span.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: (error as Error).message,
    });
    expect(span.events.map((e) => e.name)).toEqual(['exception']);
    expect(span.events[0]?.attributes?.['exception.message']).toBe((error as Error).message);
    expect(attributesOf(span)).toMatchObject({
      'error.type': 'InternalServerError',
      'gen_ai.request.model': 'fixture-error-500',
      'gen_ai.prompt.0.content': 'fail please',
    });
  });

  it('records a failed streaming request the same way', async () => {
    const error = await h
      .client()
      .responses.create({ model: 'fixture-error-429', input: 'x', stream: true })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(sdk.OpenAI.RateLimitError);
    const span = onlySpan(h.exporter, 'openai.responses.create');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('RateLimitError');
  });

  it('records a synchronous throw from create and rethrows it', () => {
    // `create` called on a resource without a client throws before any request is made.
    const create = sdk.OpenAI.Chat.Completions.prototype.create as unknown as (
      this: unknown,
      body: unknown,
    ) => unknown;
    let thrown: unknown;
    try {
      create.call({}, { model: 'm', messages: [] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    const span = onlySpan(h.exporter, 'openai.chat.completion');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: (thrown as Error).message });
    expect(span.attributes['error.type']).toBe('TypeError');
  });

  it('never lets instrumentation failures reach the application', async () => {
    const throwingProvider = {
      getTracer: (): Tracer => {
        throw new Error('tracer unavailable');
      },
    } as TracerProvider;
    const brokenSpans = {
      getTracer: () =>
        ({
          startSpan: () =>
            new Proxy(
              {},
              {
                get() {
                  throw new Error('span is broken');
                },
              },
            ),
        }) as unknown as Tracer,
    } as TracerProvider;
    h.uninstrument();
    for (const tracerProvider of [throwingProvider, brokenSpans]) {
      const uninstrument = instrumentOpenAI(sdk.OpenAI, { tracerProvider });
      try {
        const client = h.client();
        const answer = await client.chat.completions.create({
          model: 'm',
          messages: [{ role: 'user', content: 'still works?' }],
        });
        expect(answer.choices[0]?.message.content).toBe('Fixture answer to: still works?');
        const stream = await client.chat.completions.create({
          model: 'm',
          messages: [{ role: 'user', content: 'stream too?' }],
          stream: true,
        });
        let text = '';
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        expect(text).toBe('Fixture answer to: stream too?');
      } finally {
        uninstrument();
      }
    }
  });
});
