import { isInstrumented, resetWarnings, WarningCodes } from '@arclight/core';
import { instrumentOpenAI, type Uninstrument } from '@arclight/instrumentation-openai';
import { generateText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import OpenAI from 'openai';
import OpenAI6 from 'openai6';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { arclightTelemetry, withArclight } from '../src/index.js';
import {
  childrenOf,
  type Harness,
  harness,
  intArray,
  named,
  one,
  tripletResponseIds,
  triplets,
} from './support.js';

const LLM = 'openai.chat.completion';

type GenerateOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];

/** A custom AI SDK model that sends its requests through the `openai` npm client. */
function openaiClientModel(client: OpenAI): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: 'openai-client.chat',
    modelId: 'fixture-model',
    doGenerate: async (options: GenerateOptions) => {
      const messages = options.prompt.map((message) => ({
        role: message.role,
        content:
          typeof message.content === 'string'
            ? message.content
            : message.content.map((part) => ('text' in part ? part.text : '')).join(''),
      })) as OpenAI.ChatCompletionMessageParam[];
      const completion = await client.chat.completions.create({
        model: 'fixture-model',
        messages,
      });
      const choice = completion.choices[0]!;
      return {
        content: [{ type: 'text', text: choice.message.content ?? '' }],
        finishReason: { unified: 'stop', raw: choice.finish_reason },
        usage: {
          inputTokens: {
            total: completion.usage?.prompt_tokens,
            noCache: undefined,
            cacheRead: undefined,
            cacheWrite: undefined,
          },
          outputTokens: {
            total: completion.usage?.completion_tokens,
            text: undefined,
            reasoning: undefined,
          },
        },
        response: { id: completion.id, modelId: completion.model },
        warnings: [],
      };
    },
  });
}

/** A model of a provider that does not speak OpenAI's protocol. */
function otherProviderModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    provider: 'acme.messages',
    modelId: 'acme-1',
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'Hi from acme' }],
      finishReason: { unified: 'stop', raw: 'end_turn' },
      usage: {
        inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 4, text: 4, reasoning: undefined },
      },
      response: { id: 'acme-response-1', modelId: 'acme-1' },
      warnings: [],
    }),
  });
}

describe('which span is the LLM call', () => {
  let h: Harness;
  let uninstrument: Uninstrument | undefined;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(() => h.close());
  afterEach(() => {
    uninstrument?.();
    uninstrument = undefined;
    h.llm.reset();
  });

  const instrument = () => {
    uninstrument = instrumentOpenAI(OpenAI, {
      tracerProvider: h.tracer.tracerProvider,
      requestTokenIds: true,
    });
    expect(isInstrumented('openai')).toBe(true);
  };
  const client = () => new OpenAI({ baseURL: h.llm.baseUrl, apiKey: 'unused', maxRetries: 0 });

  it('without @arclight/instrumentation-openai, the AI SDK model span is the LLM call', async () => {
    expect(isInstrumented('openai')).toBe(false);
    const { spans } = await h.run(() =>
      generateText({
        model: withArclight(h.provider('fixture-model')),
        prompt: 'Count me once',
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer, { agentName: 'agent' }),
      }),
    );
    expect(named(spans, LLM)).toHaveLength(1);
    expect(triplets(spans)).toHaveLength(h.llm.requests.length);
  });

  it('with @arclight/instrumentation-openai active, AI SDK providers (which call fetch themselves) are still counted once', async () => {
    instrument();
    const { spans } = await h.run(async () => {
      await generateText({
        model: withArclight(h.provider('fixture-model')),
        prompt: 'Through fetch',
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer, { agentName: 'agent' }),
      });
      // A direct openai-client call in the same rollout is @arclight/instrumentation-openai's.
      await client().chat.completions.create({
        model: 'fixture-model',
        messages: [{ role: 'user', content: 'Direct call' }],
      });
    });
    const calls = named(spans, LLM);
    expect(calls).toHaveLength(2);
    expect(h.llm.requests).toHaveLength(2);
    expect(one(spans, 'ai.generateText').span_id).toBe(calls[0]?.parent_id);
    expect(calls[1]?.parent_id).toBeNull();
    const found = triplets(spans);
    expect(found).toHaveLength(2);
    expect(found.every((t) => tripletResponseIds(t).length > 0)).toBe(true);
  });

  it('with @arclight/instrumentation-openai active, a model built on the openai client defers to its span', async () => {
    instrument();
    const { spans } = await h.run(() =>
      generateText({
        model: openaiClientModel(client()),
        prompt: 'Through the openai client',
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer, {
          agentName: 'agent',
          openaiClientProviders: /^openai-client\./,
        }),
      }),
    );
    const modelSpan = one(spans, 'ai.generateText.doGenerate');
    expect(modelSpan.attributes['gen_ai.completion.0.content']).toBe(
      'Fixture answer to: Through the openai client',
    );
    const llm = one(spans, LLM);
    expect(llm.parent_id).toBe(modelSpan.span_id);
    expect(intArray(llm.attributes.response_token_ids).length).toBeGreaterThan(0);
    const found = triplets(spans);
    expect(found).toHaveLength(1);
    expect(found[0]?.metadata.agent_name).toBe('agent');
    expect(tripletResponseIds(found[0])).toEqual(llm.attributes.response_token_ids);
  });

  it('without @arclight/instrumentation-openai, the same openai-client model span is counted itself', async () => {
    const { spans } = await h.run(() =>
      generateText({
        model: openaiClientModel(client()),
        prompt: 'Not instrumented',
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer, { openaiClientProviders: /^openai-client\./ }),
      }),
    );
    const llm = one(spans, LLM);
    expect(childrenOf(spans, llm)).toHaveLength(0);
    expect(llm.attributes['ai.model.provider']).toBe('openai-client.chat');
    expect(triplets(spans)).toHaveLength(1);
  });

  it('decides per call, with no provider list: a model on the instrumented copy defers to its span', async () => {
    instrument();
    const { spans } = await h.run(() =>
      generateText({
        model: openaiClientModel(client()),
        prompt: 'Claimed',
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer, { agentName: 'agent' }),
      }),
    );
    expect(named(spans, LLM)).toHaveLength(1);
    expect(one(spans, 'ai.generateText.doGenerate')).toBeDefined();
    expect(triplets(spans)).toHaveLength(1);
  });

  it('a model on another, uninstrumented copy of openai is counted itself (once), with a warning', async () => {
    // The app instruments openai 6; the model's client is openai 7.
    uninstrument = instrumentOpenAI(OpenAI6, {
      tracerProvider: h.tracer.tracerProvider,
      requestTokenIds: true,
    });
    const codes: string[] = [];
    const listener = (warning: Error & { code?: string }) => codes.push(String(warning.code));
    process.on('warning', listener);
    try {
      const { spans } = await h.run(() =>
        generateText({
          model: openaiClientModel(client()),
          prompt: 'Other copy',
          maxRetries: 0,
          telemetry: arclightTelemetry(h.tracer, { openaiClientProviders: /^openai-client\./ }),
        }),
      );
      await new Promise((resolve) => setImmediate(resolve));
      const llm = one(spans, LLM);
      expect(llm.attributes['ai.model.provider']).toBe('openai-client.chat');
      expect(triplets(spans)).toHaveLength(1);
    } finally {
      process.off('warning', listener);
      resetWarnings();
    }
    expect(codes).toContain(WarningCodes.UNINSTRUMENTED_CLIENT);
  });

  it("llmCallSpan: 'never' names the model span after the operation", async () => {
    const { spans } = await h.run(() =>
      generateText({
        model: withArclight(h.provider('fixture-model')),
        prompt: 'Not an LLM call',
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer, { llmCallSpan: 'never' }),
      }),
    );
    const modelSpan = one(spans, 'ai.generateText.doGenerate');
    expect(intArray(modelSpan.attributes.response_token_ids).length).toBeGreaterThan(0);
    expect(named(spans, LLM)).toHaveLength(0);
    expect(triplets(spans)).toHaveLength(0);
  });

  it("llmCallSpan: 'always' counts the model span even for openai-client models", async () => {
    instrument();
    const { spans } = await h.run(() =>
      generateText({
        model: openaiClientModel(client()),
        prompt: 'Always',
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer, {
          llmCallSpan: 'always',
          openaiClientProviders: /^openai-client\./,
        }),
      }),
    );
    const calls = named(spans, LLM);
    expect(calls).toHaveLength(2);
    expect(calls[0]?.parent_id).toBe(calls[1]?.span_id);
    // Both carry the same response id, which upstream's adapter deduplicates.
    expect(triplets(spans)).toHaveLength(1);
  });

  it('names counted calls of non-OpenAI providers ai.chat_model', async () => {
    const { spans } = await h.run(() =>
      generateText({
        model: otherProviderModel(),
        prompt: 'Hello acme',
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer, { agentName: 'agent' }),
      }),
    );
    const modelSpan = one(spans, 'ai.chat_model');
    expect(modelSpan.attributes).toMatchObject({
      'gen_ai.system': 'acme',
      'gen_ai.prompt.0.role': 'user',
      'gen_ai.prompt.0.content': 'Hello acme',
      'gen_ai.completion.0.content': 'Hi from acme',
      'gen_ai.completion.0.finish_reason': 'end_turn',
      'gen_ai.response.id': 'acme-response-1',
      'gen_ai.usage.prompt_tokens': 3,
      'gen_ai.usage.completion_tokens': 4,
      'gen_ai.usage.total_tokens': 7,
    });
    expect(triplets(spans)).toHaveLength(0);
    expect(
      triplets(spans, { llmCallMatch: /openai\.chat\.completion|ai\.chat_model/ }),
    ).toHaveLength(1);
  });
});
