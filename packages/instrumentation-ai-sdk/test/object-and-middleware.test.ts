import { respond } from '@arclight/test-fixtures';
import { generateObject, generateText, jsonSchema, Output, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { arclightMiddleware, arclightTelemetry, withArclight } from '../src/index.js';
import { intArray, one, requestBodies, triplets, useHarness } from './support.js';

const LLM = 'openai.chat.completion';
// The fixture provider does not declare structured outputs, and generateObject is deprecated: both warn.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
const ANSWER_SCHEMA = jsonSchema<{ answer: number }>({
  type: 'object',
  properties: { answer: { type: 'number' } },
  required: ['answer'],
});

describe('structured output', () => {
  const h = useHarness();

  it('records generateObject (deprecated API) as one LLM call with token ids', async () => {
    h.llm.use(respond('JSON', '{"answer": 42}'));
    const { result, spans } = await h.run(() =>
      generateObject({
        model: withArclight(h.provider('fixture-model')),
        schema: ANSWER_SCHEMA,
        prompt: 'Answer in JSON',
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer, { agentName: 'json' }),
      }),
    );
    expect(result.object).toEqual({ answer: 42 });
    const operation = one(spans, 'ai.generateObject');
    const llm = one(spans, LLM);
    expect(llm.parent_id).toBe(operation.span_id);
    expect(operation.attributes['ai.response.object']).toBe('{"answer":42}');
    expect(llm.attributes).toMatchObject({
      'gen_ai.prompt.0.content': 'Answer in JSON',
      'gen_ai.completion.0.content': '{"answer": 42}',
      'gen_ai.completion.0.finish_reason': 'stop',
    });
    expect(h.llm.tokenizer.decode(intArray(llm.attributes.response_token_ids))).toBe(
      '{"answer": 42}<|im_end|>',
    );
    expect(triplets(spans)[0]?.metadata.agent_name).toBe('json');
  });

  it('records generateText with Output.object like any other step', async () => {
    h.llm.use(respond('JSON', '{"answer": 7}'));
    const { result, spans } = await h.run(() =>
      generateText({
        model: withArclight(h.provider('fixture-model')),
        output: Output.object({ schema: ANSWER_SCHEMA }),
        prompt: 'Answer in JSON',
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer),
      }),
    );
    expect(result.output).toEqual({ answer: 7 });
    expect(one(spans, LLM).attributes['gen_ai.completion.0.content']).toBe('{"answer": 7}');
  });
});

describe('arclightMiddleware', () => {
  const h = useHarness();

  it('reports token ids in providerMetadata for generate and stream calls', async () => {
    const model = withArclight(h.provider('fixture-model'));
    const plain = await generateText({ model, prompt: 'Same prompt', maxRetries: 0 });
    const streamed = streamText({ model, prompt: 'Same prompt', maxRetries: 0 });
    expect(await streamed.text).toBe(plain.text);
    const plainIds = plain.providerMetadata?.arclight;
    expect(plainIds).toBeDefined();
    expect((await streamed.providerMetadata)?.arclight).toEqual(plainIds);
    expect(requestBodies(h.llm).map((b) => b.return_token_ids)).toEqual([true, true]);
  });

  it("keeps the caller's provider options and can be told not to ask for token ids", async () => {
    const asking = withArclight(h.provider('fixture-model'));
    await generateText({
      model: asking,
      prompt: 'Options',
      maxRetries: 0,
      providerOptions: { fixture: { return_token_ids: false, user: 'u-1' } },
    });
    const quiet = withArclight(h.provider('fixture-model'), { requestTokenIds: false });
    const result = await generateText({ model: quiet, prompt: 'Quiet', maxRetries: 0 });
    const keyed = withArclight(h.provider('fixture-model'), { providerOptionsKey: 'other' });
    await generateText({ model: keyed, prompt: 'Keyed', maxRetries: 0 });
    const [first, second, third] = requestBodies(h.llm);
    expect(first).toMatchObject({ return_token_ids: false, user: 'u-1' });
    expect(second?.return_token_ids).toBeUndefined();
    expect(result.providerMetadata?.arclight).toBeUndefined();
    expect(third?.return_token_ids).toBeUndefined();
  });

  it('is a plain LanguageModelMiddleware', () => {
    const middleware = arclightMiddleware();
    expect(middleware.specificationVersion).toBe('v4');
    expect(typeof middleware.transformParams).toBe('function');
    expect(typeof middleware.wrapStream).toBe('function');
  });
});
