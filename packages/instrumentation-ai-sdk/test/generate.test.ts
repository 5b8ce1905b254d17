import { generateText, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { arclightTelemetry, withArclight } from '../src/index.js';
import {
  calculatorResponder,
  calculatorTool,
  childrenOf,
  intArray,
  named,
  one,
  requestBodies,
  tripletPromptIds,
  tripletResponseIds,
  triplets,
  useHarness,
} from './support.js';

const LLM = 'openai.chat.completion';

describe('generateText', () => {
  const h = useHarness();

  it('records one LLM-call span with gen_ai attributes and token ids under the operation span', async () => {
    const model = withArclight(h.provider('fixture-model'));
    const { result, spans } = await h.run(() =>
      generateText({
        model,
        instructions: 'You are terse.',
        prompt: 'Hello there',
        temperature: 0.5,
        maxOutputTokens: 64,
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer, { functionId: 'greeter' }),
      }),
    );
    expect(result.text).toBe('Fixture answer to: Hello there');
    expect(spans.map((s) => s.name).sort()).toEqual(['ai.generateText', LLM]);

    const operation = one(spans, 'ai.generateText');
    const llm = one(spans, LLM);
    expect(operation.parent_id).toBeNull();
    expect(llm.parent_id).toBe(operation.span_id);
    expect(operation.attributes).toMatchObject({
      'agent.name': 'greeter',
      'ai.telemetry.functionId': 'greeter',
      'ai.response.text': 'Fixture answer to: Hello there',
      'ai.response.finishReason': 'stop',
    });
    expect(llm.attributes).toMatchObject({
      'gen_ai.system': 'OpenAI',
      'gen_ai.request.type': 'chat',
      'gen_ai.request.model': 'fixture-model',
      'gen_ai.request.temperature': 0.5,
      'gen_ai.request.max_tokens': 64,
      'gen_ai.request.streaming': false,
      'gen_ai.request.return_token_ids': true,
      'gen_ai.prompt.0.role': 'system',
      'gen_ai.prompt.0.content': 'You are terse.',
      'gen_ai.prompt.1.role': 'user',
      'gen_ai.prompt.1.content': 'Hello there',
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.content': 'Fixture answer to: Hello there',
      'gen_ai.completion.0.finish_reason': 'stop',
      'gen_ai.response.model': 'fixture-model',
      'ai.model.provider': 'fixture.chat',
    });
    expect(llm.attributes['gen_ai.response.id']).toMatch(/^chatcmpl-/);
    expect(llm.status.status_code).toBe('OK');

    const tokenizer = h.llm.tokenizer;
    const promptIds = intArray(llm.attributes.prompt_token_ids);
    const responseIds = intArray(llm.attributes.response_token_ids);
    expect(tokenizer.decode(promptIds)).toBe(
      tokenizer.render([
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Hello there' },
      ]),
    );
    expect(tokenizer.decode(responseIds)).toBe('Fixture answer to: Hello there<|im_end|>');
    expect(llm.attributes['gen_ai.usage.prompt_tokens']).toBe(promptIds.length);
    expect(llm.attributes['gen_ai.usage.completion_tokens']).toBe(responseIds.length);
    expect(result.providerMetadata?.arclight).toEqual({
      prompt_token_ids: promptIds,
      response_token_ids: responseIds,
    });

    const [triplet] = triplets(spans);
    expect(triplets(spans)).toHaveLength(1);
    expect(tripletPromptIds(triplet)).toEqual(promptIds);
    expect(tripletResponseIds(triplet)).toEqual(responseIds);
    expect(triplet?.metadata.agent_name).toBe('greeter');
  });

  it('records a multi-step tool run: one LLM call per step, a tool span, tool_call children', async () => {
    h.llm.use(calculatorResponder('6*7'));
    const model = withArclight(h.provider('fixture-model'));
    const { result, spans } = await h.run(() =>
      generateText({
        model,
        prompt: 'What is 6*7?',
        tools: { calculator: calculatorTool() },
        stopWhen: stepCountIs(4),
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer, { agentName: 'calc' }),
      }),
    );
    expect(result.steps).toHaveLength(2);
    expect(result.text).toBe('Fixture answer to: What is 6*7?');

    const operation = one(spans, 'ai.generateText');
    const calls = named(spans, LLM);
    const toolSpan = one(spans, 'ai.toolCall');
    expect(calls).toHaveLength(h.llm.requests.length);
    expect(calls).toHaveLength(2);
    for (const span of [...calls, toolSpan]) expect(span.parent_id).toBe(operation.span_id);
    expect(operation.attributes['agent.name']).toBe('calc');
    expect(operation.attributes['ai.steps']).toBe(2);

    const [first, second] = calls;
    expect(first?.attributes).toMatchObject({
      'gen_ai.completion.0.finish_reason': 'tool_calls',
      'gen_ai.completion.0.tool_calls.0.name': 'calculator',
      'gen_ai.completion.0.tool_calls.0.arguments': '{"expression":"6*7"}',
      'gen_ai.request.functions.0.name': 'calculator',
      'gen_ai.request.functions.0.description': 'Evaluates an arithmetic expression',
    });
    expect(first?.attributes['gen_ai.completion.0.content']).toBeUndefined();
    const callId = first?.attributes['gen_ai.completion.0.tool_calls.0.id'];
    expect(callId).toMatch(/^call_/);
    const [requested] = childrenOf(spans, first!);
    expect(requested?.name).toBe('tool_call.calculator');
    expect(requested?.attributes).toMatchObject({
      'tool.name': 'calculator',
      'tool.parameters': '{"expression":"6*7"}',
      'tool.call.id': callId,
    });
    expect(h.llm.tokenizer.decode(intArray(first?.attributes.response_token_ids))).toBe(
      '<tool_call>\n{"name": "calculator", "arguments": {"expression":"6*7"}}\n</tool_call><|im_end|>',
    );

    expect(toolSpan.attributes).toMatchObject({
      'ai.toolCall.name': 'calculator',
      'ai.toolCall.id': callId,
      'ai.toolCall.args': '{"expression":"6*7"}',
      'ai.toolCall.result': '42',
      'gen_ai.tool.name': 'calculator',
      'tool.call.id': callId,
    });
    expect(toolSpan.status.status_code).toBe('OK');

    expect(second?.attributes).toMatchObject({
      'gen_ai.prompt.0.role': 'user',
      'gen_ai.prompt.1.role': 'assistant',
      'gen_ai.prompt.1.tool_calls.0.id': callId,
      'gen_ai.prompt.1.tool_calls.0.name': 'calculator',
      'gen_ai.prompt.2.role': 'tool',
      'gen_ai.prompt.2.tool_call_id': callId,
      'gen_ai.prompt.2.content': '42',
      'gen_ai.completion.0.finish_reason': 'stop',
    });
    // Each step's prompt ids are what the server tokenized for that request.
    const decodedPrompt = h.llm.tokenizer.decode(intArray(second?.attributes.prompt_token_ids));
    expect(decodedPrompt).toContain('<tool_response>\n42\n</tool_response>');

    const found = triplets(spans, { agentMatch: /^calc$/ });
    expect(found).toHaveLength(2);
    expect(found.every((t) => t.metadata.agent_name === 'calc')).toBe(true);
    expect(triplets(spans, { agentMatch: /^other$/ })).toHaveLength(0);
  });

  it('reads token ids from the raw body without the middleware when the request asks for them', async () => {
    const { spans } = await h.run(() =>
      generateText({
        model: h.provider('fixture-model'),
        prompt: 'No middleware',
        maxRetries: 0,
        providerOptions: { fixture: { return_token_ids: true } },
        telemetry: arclightTelemetry(h.tracer),
      }),
    );
    const llm = one(spans, LLM);
    expect(h.llm.tokenizer.decode(intArray(llm.attributes.response_token_ids))).toBe(
      'Fixture answer to: No middleware<|im_end|>',
    );
    expect(one(spans, 'ai.generateText').attributes['agent.name']).toBeUndefined();
  });

  it('works under the deprecated experimental_telemetry name too', async () => {
    const { spans } = await h.run(() =>
      generateText({
        model: withArclight(h.provider('fixture-model')),
        prompt: 'Old option name',
        maxRetries: 0,
        experimental_telemetry: arclightTelemetry(h.tracer, { functionId: 'legacy' }),
      }),
    );
    expect(one(spans, 'ai.generateText').attributes['agent.name']).toBe('legacy');
    expect(triplets(spans)).toHaveLength(1);
  });

  it('has no token ids when the server was not asked for them', async () => {
    const { spans } = await h.run(() =>
      generateText({
        model: h.provider('fixture-model'),
        prompt: 'Plain',
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer),
      }),
    );
    const llm = one(spans, LLM);
    expect(llm.attributes.prompt_token_ids).toBeUndefined();
    expect(llm.attributes.response_token_ids).toBeUndefined();
    expect(requestBodies(h.llm)[0]?.return_token_ids).toBeUndefined();
    expect(llm.attributes['gen_ai.completion.0.content']).toBe('Fixture answer to: Plain');
  });

  it('drops prompt and completion text with recordInputs/recordOutputs false but keeps token ids', async () => {
    h.llm.use(calculatorResponder());
    const { spans } = await h.run(() =>
      generateText({
        model: withArclight(h.provider('fixture-model')),
        prompt: 'Secret question',
        tools: { calculator: calculatorTool() },
        stopWhen: stepCountIs(3),
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer, { recordInputs: false, recordOutputs: false }),
      }),
    );
    const text = JSON.stringify(spans.map((s) => s.attributes));
    expect(text).not.toContain('Secret question');
    expect(text).not.toContain('Fixture answer');
    expect(text).not.toContain('6*7');
    const calls = named(spans, LLM);
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.attributes['gen_ai.prompt.0.role']).toBe('user');
      expect(intArray(call.attributes.prompt_token_ids).length).toBeGreaterThan(0);
      expect(intArray(call.attributes.response_token_ids).length).toBeGreaterThan(0);
    }
  });

  it('nests an agent called by a tool under that tool span and attributes its calls to it', async () => {
    h.llm.use(calculatorResponder());
    const inner = withArclight(h.provider('fixture-model'));
    const outerTool = calculatorTool();
    const delegating = {
      ...outerTool,
      execute: async () => {
        const answer = await generateText({
          model: inner,
          prompt: 'Inner question',
          maxRetries: 0,
          telemetry: arclightTelemetry(h.tracer, { agentName: 'helper' }),
        });
        return answer.text;
      },
    };
    const { spans } = await h.run(() =>
      generateText({
        model: withArclight(h.provider('fixture-model')),
        prompt: 'Outer question',
        tools: { calculator: delegating },
        stopWhen: stepCountIs(3),
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer, { agentName: 'planner' }),
      }),
    );
    const operations = named(spans, 'ai.generateText');
    expect(operations).toHaveLength(2);
    const outer = operations.find((s) => s.attributes['agent.name'] === 'planner')!;
    const innerOp = operations.find((s) => s.attributes['agent.name'] === 'helper')!;
    const toolSpan = one(spans, 'ai.toolCall');
    expect(toolSpan.parent_id).toBe(outer.span_id);
    expect(innerOp.parent_id).toBe(toolSpan.span_id);
    const [innerCall] = childrenOf(spans, innerOp);
    expect(innerCall?.name).toBe(LLM);
    expect(innerCall?.attributes['gen_ai.prompt.0.content']).toBe('Inner question');

    const found = triplets(spans);
    expect(found).toHaveLength(3);
    expect(found.map((t) => t.metadata.agent_name)).toEqual(['planner', 'helper', 'planner']);
    expect(triplets(spans, { agentMatch: /^helper$/ })).toHaveLength(1);
  });
});
