import { generateText, stepCountIs, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { arclightTelemetry, withArclight } from '../src/index.js';
import {
  calculatorResponder,
  calculatorTool,
  childrenOf,
  intArray,
  named,
  one,
  tripletResponseIds,
  triplets,
  useHarness,
} from './support.js';

const LLM = 'openai.chat.completion';

describe('streamText', () => {
  const h = useHarness();

  it('records one LLM call per streamed step with the token ids of the same plain request', async () => {
    h.llm.use(calculatorResponder('6*7'));
    const model = withArclight(h.provider('fixture-model'));
    const options = {
      model,
      prompt: 'What is 6*7?',
      tools: { calculator: calculatorTool() },
      stopWhen: stepCountIs(4),
      maxRetries: 0,
    };
    const { spans } = await h.run(async () => {
      const result = streamText({
        ...options,
        telemetry: arclightTelemetry(h.tracer, { agentName: 'calc' }),
      });
      const parts: string[] = [];
      for await (const part of result.stream) parts.push(part.type);
      expect(parts).not.toContain('raw');
      expect(await result.text).toBe('Fixture answer to: What is 6*7?');
      expect((await result.providerMetadata)?.arclight).toBeDefined();
    });
    const plain = await h.run(() =>
      generateText({ ...options, telemetry: arclightTelemetry(h.tracer, { agentName: 'calc' }) }),
    );

    const operation = one(spans, 'ai.streamText');
    const calls = named(spans, LLM);
    expect(calls).toHaveLength(2);
    const toolSpan = one(spans, 'ai.toolCall');
    for (const span of [...calls, toolSpan]) expect(span.parent_id).toBe(operation.span_id);
    expect(operation.attributes).toMatchObject({
      'agent.name': 'calc',
      'ai.response.text': 'Fixture answer to: What is 6*7?',
      'ai.steps': 2,
    });
    expect(toolSpan.attributes['ai.toolCall.result']).toBe('42');

    const plainCalls = named(plain.spans, LLM);
    calls.forEach((call, i) => {
      const twin = plainCalls[i]!;
      expect(call.attributes['gen_ai.request.streaming']).toBe(true);
      expect(twin.attributes['gen_ai.request.streaming']).toBe(false);
      expect(call.attributes.prompt_token_ids).toEqual(twin.attributes.prompt_token_ids);
      expect(call.attributes.response_token_ids).toEqual(twin.attributes.response_token_ids);
      for (const key of [
        'gen_ai.completion.0.finish_reason',
        'gen_ai.completion.0.content',
        'gen_ai.completion.0.tool_calls.0.name',
        'gen_ai.completion.0.tool_calls.0.arguments',
        'gen_ai.usage.prompt_tokens',
        'gen_ai.usage.completion_tokens',
        'gen_ai.prompt.2.content',
      ]) {
        expect(call.attributes[key], key).toEqual(twin.attributes[key]);
      }
    });
    expect(h.llm.tokenizer.decode(intArray(calls[1]?.attributes.response_token_ids))).toBe(
      'Fixture answer to: What is 6*7?<|im_end|>',
    );
    expect(childrenOf(spans, calls[0]!).map((s) => s.name)).toEqual(['tool_call.calculator']);
    const found = triplets(spans);
    expect(found).toHaveLength(2);
    expect(found.every((t) => tripletResponseIds(t).length > 0)).toBe(true);
  });

  it('passes raw chunks on when the caller asked for them, and reads token ids from them alone', async () => {
    const { spans } = await h.run(async () => {
      const result = streamText({
        model: h.provider('fixture-model'),
        prompt: 'Raw please',
        maxRetries: 0,
        include: { rawChunks: true },
        providerOptions: { fixture: { return_token_ids: true } },
        telemetry: arclightTelemetry(h.tracer),
      });
      let raw = 0;
      for await (const part of result.stream) if (part.type === 'raw') raw += 1;
      expect(raw).toBeGreaterThan(1);
    });
    const llm = one(spans, LLM);
    expect(h.llm.tokenizer.decode(intArray(llm.attributes.response_token_ids))).toBe(
      'Fixture answer to: Raw please<|im_end|>',
    );
    expect(intArray(llm.attributes.prompt_token_ids).length).toBe(
      llm.attributes['gen_ai.usage.prompt_tokens'],
    );
  });

  it('keeps raw chunks for a caller that asked for them through the middleware', async () => {
    const { spans } = await h.run(async () => {
      const result = streamText({
        model: withArclight(h.provider('fixture-model')),
        prompt: 'Raw too',
        maxRetries: 0,
        include: { rawChunks: true },
        telemetry: arclightTelemetry(h.tracer),
      });
      const types: string[] = [];
      for await (const part of result.stream) types.push(part.type);
      expect(types).toContain('raw');
    });
    expect(intArray(one(spans, LLM).attributes.response_token_ids).length).toBeGreaterThan(0);
  });

  it('ends the LLM span as partial when the stream is aborted', async () => {
    const { spans } = await h.run(async () => {
      const controller = new AbortController();
      const result = streamText({
        model: withArclight(h.provider('fixture-model')),
        prompt: 'A long answer that will be cut off',
        maxRetries: 0,
        abortSignal: controller.signal,
        telemetry: arclightTelemetry(h.tracer),
      });
      for await (const part of result.stream) {
        if (part.type === 'text-delta') {
          controller.abort();
          break;
        }
      }
    });
    const llm = one(spans, LLM);
    const operation = one(spans, 'ai.streamText');
    expect(llm.parent_id).toBe(operation.span_id);
    expect(llm.attributes['arclight.stream.partial']).toBe(true);
    expect(['cancelled', 'error', 'abandoned']).toContain(
      llm.attributes['arclight.stream.end_reason'],
    );
    expect(operation.attributes['arclight.aborted']).toBe(true);
    expect(llm.end_time).not.toBeNull();
    expect(operation.end_time).not.toBeNull();
  });
});
