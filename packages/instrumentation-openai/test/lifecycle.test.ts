import { isInstrumented } from '@arclight/core';
import { context, createContextKey, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import * as openaiModule from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { instrumentOpenAI, isOpenAIInstrumented, OpenAIInstrumentation } from '../src/index.js';
import { type Harness, harness, SDKS, spansNamed } from './helpers.js';

const SPAN = 'openai.chat.completion';
const BODY = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

describe.each(SDKS)('instrument / uninstrument ($name)', (sdk) => {
  let h: Harness;
  const methods = () => [
    sdk.OpenAI.Chat.Completions.prototype.create,
    sdk.OpenAI.Responses.prototype.create,
    sdk.OpenAI.Completions.prototype.create,
  ];
  beforeAll(async () => {
    h = await harness(sdk);
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.uninstrument();
    h.exporter.reset();
  });

  it('patches the three prototypes once and restores the originals', async () => {
    const originals = methods();
    expect(isOpenAIInstrumented(sdk.OpenAI)).toBe(false);
    const uninstrument = instrumentOpenAI(sdk.OpenAI, { tracerProvider: h.provider });
    expect(isOpenAIInstrumented(sdk.OpenAI)).toBe(true);
    methods().forEach((m, i) => {
      expect(m).not.toBe(originals[i]);
    });

    uninstrument();
    expect(methods()).toEqual(originals);
    expect(isOpenAIInstrumented(sdk.OpenAI)).toBe(false);
    await h.client().chat.completions.create(BODY);
    expect(h.exporter.getFinishedSpans()).toHaveLength(0);
    uninstrument(); // idempotent
    expect(methods()).toEqual(originals);
  });

  it("reports itself to @arclight/core's instrumentation registry while active", () => {
    expect(isInstrumented('openai')).toBe(false);
    const uninstrument = instrumentOpenAI(sdk.OpenAI, { tracerProvider: h.provider });
    expect(isInstrumented('openai')).toBe(true);
    instrumentOpenAI(sdk.OpenAI)(); // a no-op instrumentation must not unregister the real one
    expect(isInstrumented('openai')).toBe(true);
    uninstrument();
    uninstrument();
    expect(isInstrumented('openai')).toBe(false);
  });

  it('treats a second instrumentation as a no-op (one span per call)', async () => {
    const first = instrumentOpenAI(sdk.OpenAI, { tracerProvider: h.provider });
    const patched = methods();
    const second = instrumentOpenAI(sdk.OpenAI, { tracerProvider: h.provider });
    expect(methods()).toEqual(patched);
    await h.client().chat.completions.create(BODY);
    expect(spansNamed(h.exporter, SPAN)).toHaveLength(1);
    second();
    expect(isOpenAIInstrumented(sdk.OpenAI)).toBe(true);
    first();
    expect(isOpenAIInstrumented(sdk.OpenAI)).toBe(false);
  });

  it('accepts the module namespace as well as the class', () => {
    const namespace = sdk.name === 'openai@7' ? openaiModule : { default: sdk.OpenAI };
    const uninstrument = instrumentOpenAI(namespace, { tracerProvider: h.provider });
    expect(isOpenAIInstrumented(sdk.OpenAI)).toBe(true);
    uninstrument();
    expect(instrumentOpenAI({ not: 'openai' })).toBeTypeOf('function');
  });

  it('patches every client, including ones created before instrumenting', async () => {
    const early = h.client();
    const uninstrument = instrumentOpenAI(sdk.OpenAI, { tracerProvider: h.provider });
    await early.chat.completions.create(BODY);
    await h.client().chat.completions.create(BODY);
    uninstrument();
    expect(spansNamed(h.exporter, SPAN)).toHaveLength(2);
  });

  it('writes no span when tracing is suppressed in the context', async () => {
    const uninstrument = instrumentOpenAI(sdk.OpenAI, { tracerProvider: h.provider });
    const suppressed = ROOT_CONTEXT.setValue(
      createContextKey('OpenTelemetry SDK Context Key SUPPRESS_TRACING'),
      true,
    );
    const answer = await context.with(suppressed, () => h.client().chat.completions.create(BODY));
    uninstrument();
    expect(answer.choices).toHaveLength(1);
    expect(h.exporter.getFinishedSpans()).toHaveLength(0);
  });

  it('parents spans under the active span, also across concurrent traces', async () => {
    const uninstrument = instrumentOpenAI(sdk.OpenAI, { tracerProvider: h.provider });
    const tracer = h.provider.getTracer('test');
    const client = h.client();
    const agent = (name: string) =>
      tracer.startActiveSpan(name, async (span) => {
        await client.chat.completions.create({
          ...BODY,
          messages: [{ role: 'user', content: name }],
        });
        await client.chat.completions.create({
          ...BODY,
          messages: [{ role: 'user', content: name }],
        });
        span.end();
        return span.spanContext();
      });
    const [a, b] = await Promise.all([agent('agent-a'), agent('agent-b')]);
    uninstrument();

    for (const [parent, name] of [
      [a, 'agent-a'],
      [b, 'agent-b'],
    ] as const) {
      const children = spansNamed(h.exporter, SPAN).filter(
        (s) => s.parentSpanContext?.spanId === parent.spanId,
      );
      expect(children).toHaveLength(2);
      for (const child of children) {
        expect(child.spanContext().traceId).toBe(parent.traceId);
        expect(child.attributes['gen_ai.prompt.0.content']).toBe(name);
      }
    }
  });

  it('makes the LLM span active while the request is sent', async () => {
    let activeDuringFetch: string | undefined;
    const fetchSpy: typeof fetch = (input, init) => {
      activeDuringFetch = trace.getActiveSpan()?.spanContext().spanId;
      return fetch(input, init);
    };
    const uninstrument = instrumentOpenAI(sdk.OpenAI, { tracerProvider: h.provider });
    await h.client({ fetch: fetchSpy }).chat.completions.create(BODY);
    uninstrument();
    expect(activeDuringFetch).toBe(spansNamed(h.exporter, SPAN)[0]?.spanContext().spanId);
  });
});

describe.each(SDKS)('OpenAIInstrumentation ($name)', (sdk) => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness(sdk);
  });
  afterAll(() => h.close());

  it('instruments an ESM import through manuallyInstrument() and restores on disable()', async () => {
    h.exporter.reset();
    const instrumentation = new OpenAIInstrumentation({
      tracerProvider: h.provider,
      requestTokenIds: true,
    });
    instrumentation.manuallyInstrument(sdk.OpenAI);
    expect(isOpenAIInstrumented(sdk.OpenAI)).toBe(true);
    await h.client().chat.completions.create(BODY);
    const [span] = spansNamed(h.exporter, SPAN);
    expect(span?.instrumentationScope.name).toBe('@arclight/instrumentation-openai');
    expect(span?.attributes.prompt_token_ids).toBeInstanceOf(Array);

    instrumentation.setConfig({ requestTokenIds: false });
    await h.client().chat.completions.create(BODY);
    expect(h.llm.requests.at(-1)?.body).not.toHaveProperty('return_token_ids');

    instrumentation.disable();
    expect(isOpenAIInstrumented(sdk.OpenAI)).toBe(false);
    await h.client().chat.completions.create(BODY);
    expect(spansNamed(h.exporter, SPAN)).toHaveLength(2);
  });

  it('uses a tracer provider set later with setTracerProvider()', async () => {
    h.exporter.reset();
    const instrumentation = new OpenAIInstrumentation({ enabled: false });
    instrumentation.manuallyInstrument(sdk.OpenAI);
    instrumentation.setTracerProvider(h.provider);
    await h.client().chat.completions.create(BODY);
    instrumentation.disable();
    instrumentation.enable();
    instrumentation.disable();
    expect(spansNamed(h.exporter, SPAN)).toHaveLength(1);
  });
});
