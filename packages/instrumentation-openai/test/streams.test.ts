import { SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { attributesOf, type Harness, harness, onlySpan, SDKS } from './helpers.js';

const SPAN = 'openai.chat.completion';
const QUESTION = 'a rather long question to stream back';
const BODY = {
  model: 'fixture-model',
  messages: [{ role: 'user' as const, content: QUESTION }],
  stream: true as const,
};

/** An SSE body: one content chunk, then an in-band error (the SDK throws it mid-iteration). */
function brokenStreamFetch(): typeof fetch {
  const chunk = {
    id: 'chatcmpl-broken',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }],
  };
  const body = `data: ${JSON.stringify(chunk)}\n\ndata: {"error":{"message":"overloaded","type":"server_error"}}\n\n`;
  return async () =>
    new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

describe.each(SDKS)('streams ($name)', (sdk) => {
  let h: Harness;
  beforeAll(async () => {
    // Paced chunks so that an abort lands mid-stream.
    h = await harness(sdk, { chunkDelayMs: 2 });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.exporter.reset();
    h.instrument({ requestTokenIds: true });
  });

  it('hands the caller the SDK Stream itself (controller, tee, toReadableStream intact)', async () => {
    const stream = await h.client().chat.completions.create(BODY);
    expect(stream.constructor.name).toBe('Stream');
    expect(stream.controller).toBeInstanceOf(AbortController);
    const [left, right] = stream.tee();
    const read = async (s: typeof left) => {
      let text = '';
      for await (const chunk of s) text += chunk.choices[0]?.delta.content ?? '';
      return text;
    };
    const [a, b] = await Promise.all([read(left), read(right)]);
    expect(a).toBe(`Fixture answer to: ${QUESTION}`);
    expect(b).toBe(a);
    const span = onlySpan(h.exporter, SPAN);
    expect(span.attributes['gen_ai.completion.0.content']).toBe(a);
    expect(span.attributes).not.toHaveProperty('arclight.stream.partial');
  });

  it('ends the span when the stream is read through toReadableStream()', async () => {
    const stream = await h.client().chat.completions.create(BODY);
    const reader = stream.toReadableStream().getReader();
    let lines = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read()) lines += 1;
    expect(lines).toBeGreaterThan(2);
    const attrs = attributesOf(onlySpan(h.exporter, SPAN));
    expect(attrs['gen_ai.completion.0.finish_reason']).toBe('stop');
    expect(attrs.response_token_ids).toBeInstanceOf(Array);
  });

  it('ends the span as partial when the caller breaks out of the loop', async () => {
    const stream = await h.client().chat.completions.create(BODY);
    let first = '';
    for await (const chunk of stream) {
      first += chunk.choices[0]?.delta.content ?? '';
      if (first) break;
    }
    const span = onlySpan(h.exporter, SPAN);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(attributesOf(span)).toMatchObject({
      'arclight.stream.partial': true,
      'arclight.stream.end_reason': 'abandoned',
      'gen_ai.completion.0.content': first,
    });
    expect(attributesOf(span)).not.toHaveProperty('gen_ai.completion.0.finish_reason');
  });

  it('ends the span as partial when the loop body throws, and the error reaches the caller', async () => {
    const stream = await h.client().chat.completions.create(BODY);
    const consume = async () => {
      for await (const _ of stream) throw new RangeError('caller bug');
    };
    await expect(consume()).rejects.toThrow(RangeError);
    expect(attributesOf(onlySpan(h.exporter, SPAN))).toMatchObject({
      'arclight.stream.partial': true,
      'arclight.stream.end_reason': 'abandoned',
    });
  });

  it('ends the span as partial (aborted) on controller.abort()', async () => {
    const stream = await h.client().chat.completions.create(BODY);
    let chunks = 0;
    const consume = async () => {
      for await (const _ of stream) {
        chunks += 1;
        if (chunks === 2) stream.controller.abort();
      }
    };
    await consume().catch(() => undefined);
    const attrs = attributesOf(onlySpan(h.exporter, SPAN));
    expect(attrs).toMatchObject({
      'arclight.stream.partial': true,
      'arclight.stream.end_reason': 'aborted',
    });
    expect(attrs).not.toHaveProperty('gen_ai.completion.0.finish_reason');
  });

  it('records an error raised mid-stream with what arrived before it', async () => {
    const stream = await h
      .client({ fetch: brokenStreamFetch() })
      .chat.completions.create({ ...BODY, model: 'm' });
    let text = '';
    const consume = async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    };
    const error = await consume().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(sdk.OpenAI.APIError);
    expect(text).toBe('Hel');
    const span = onlySpan(h.exporter, SPAN);
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    expect(attributesOf(span)).toMatchObject({
      'arclight.stream.partial': true,
      'arclight.stream.end_reason': 'error',
      'gen_ai.completion.0.content': 'Hel',
      'gen_ai.response.id': 'chatcmpl-broken',
    });
  });

  it('keeps the span open while a stream is unread, then ends it when read', async () => {
    const stream = await h.client().chat.completions.create(BODY);
    expect(h.exporter.getFinishedSpans()).toHaveLength(0);
    for await (const _ of stream) {
      // drain
    }
    expect(h.exporter.getFinishedSpans()).toHaveLength(1);
  });
});
