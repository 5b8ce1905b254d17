import { respond } from '@arclight/test-fixtures';
import type { Span as OtelSpan, Tracer } from '@opentelemetry/api';
import { generateText, stepCountIs, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { ArclightTelemetry, arclightTelemetry, withArclight } from '../src/index.js';
import {
  calculatorResponder,
  calculatorTool,
  named,
  one,
  tripletResponseIds,
  triplets,
  useHarness,
} from './support.js';

const LLM = 'openai.chat.completion';

describe('error paths', () => {
  const h = useHarness();

  it('marks a throwing tool span as failed while the run goes on', async () => {
    h.llm.use(calculatorResponder('1/0'));
    const { result, spans } = await h.run(() =>
      generateText({
        model: withArclight(h.provider('fixture-model')),
        prompt: 'Divide by zero',
        tools: { calculator: calculatorTool(true) },
        stopWhen: stepCountIs(3),
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer),
      }),
    );
    expect(result.steps).toHaveLength(2);
    const toolSpan = one(spans, 'ai.toolCall');
    expect(toolSpan.status.status_code).toBe('ERROR');
    expect(toolSpan.status.description).toBe('cannot evaluate 1/0');
    expect(toolSpan.attributes['ai.toolCall.result']).toBeUndefined();
    expect(toolSpan.events.map((e) => e.name)).toEqual(['exception']);
    expect(toolSpan.events[0]?.attributes['exception.message']).toBe('cannot evaluate 1/0');
    const calls = named(spans, LLM);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.attributes['gen_ai.prompt.2.role']).toBe('tool');
    expect(one(spans, 'ai.generateText').status.status_code).toBe('OK');
  });

  it('records a model call that fails with HTTP 500 and fails the operation span', async () => {
    h.llm.use(respond('explode', { error: { status: 500, message: 'injected failure' } }));
    const { spans } = await h.run(async () => {
      await expect(
        generateText({
          model: withArclight(h.provider('fixture-model')),
          instructions: 'Be careful.',
          prompt: 'Please explode',
          maxRetries: 0,
          telemetry: arclightTelemetry(h.tracer, { agentName: 'boom' }),
        }),
      ).rejects.toThrow(/injected failure/);
    });
    expect(h.llm.requests).toHaveLength(1);
    const llm = one(spans, LLM);
    const operation = one(spans, 'ai.generateText');
    expect(llm.parent_id).toBe(operation.span_id);
    expect(llm.status.status_code).toBe('ERROR');
    expect(llm.status.description).toContain('injected failure');
    expect(llm.attributes['error.type']).toBe('AI_APICallError');
    // The prompt comes from the failed request's body.
    expect(llm.attributes).toMatchObject({
      'gen_ai.prompt.0.role': 'system',
      'gen_ai.prompt.0.content': 'Be careful.',
      'gen_ai.prompt.1.content': 'Please explode',
      'gen_ai.request.return_token_ids': true,
    });
    expect(llm.attributes['gen_ai.response.id']).toBeUndefined();
    expect(operation.status.status_code).toBe('ERROR');
    expect(operation.events.map((e) => e.name)).toEqual(['exception']);
  });

  it('writes one span per attempt when the AI SDK retries a failed call', async () => {
    let attempts = 0;
    h.llm.use(
      respond(() => attempts++ < 2, {
        error: { status: 503, message: 'overloaded', headers: { 'retry-after-ms': '0' } },
      }),
    );
    const { result, spans } = await h.run(() =>
      generateText({
        model: withArclight(h.provider('fixture-model')),
        prompt: 'Retry me',
        maxRetries: 2,
        telemetry: arclightTelemetry(h.tracer),
      }),
    );
    expect(result.text).toBe('Fixture answer to: Retry me');
    expect(h.llm.requests).toHaveLength(3);
    const calls = named(spans, LLM);
    expect(calls.map((s) => s.status.status_code)).toEqual(['ERROR', 'ERROR', 'OK']);
    // Failed attempts have no response id; the adapter still sees one call per request.
    expect(triplets(spans)).toHaveLength(3);
    expect(tripletResponseIds(triplets(spans)[2]).length).toBeGreaterThan(0);
  });

  it('records a failed stream request', async () => {
    const errors: unknown[] = [];
    h.llm.use(respond('explode', { error: { status: 500, message: 'stream failure' } }));
    const { spans } = await h.run(async () => {
      const result = streamText({
        model: withArclight(h.provider('fixture-model')),
        prompt: 'explode while streaming',
        maxRetries: 0,
        telemetry: arclightTelemetry(h.tracer),
        onError: ({ error }) => {
          errors.push(error);
        },
      });
      await expect(result.text).rejects.toThrow(/No output generated/);
    });
    expect(String(errors[0])).toContain('stream failure');
    const llm = one(spans, LLM);
    expect(llm.status.status_code).toBe('ERROR');
    expect(llm.parent_id).toBe(one(spans, 'ai.streamText').span_id);
    expect(llm.attributes['gen_ai.request.streaming']).toBe(true);
    expect(llm.attributes['gen_ai.prompt.0.content']).toBe('explode while streaming');
    expect(one(spans, 'ai.streamText').end_time).not.toBeNull();
  });

  it('never throws into the AI SDK when tracing itself fails', async () => {
    const broken: Tracer = {
      startSpan(): OtelSpan {
        throw new Error('tracer is broken');
      },
      startActiveSpan(): never {
        throw new Error('tracer is broken');
      },
    };
    h.llm.use(calculatorResponder());
    const integration = new ArclightTelemetry({ getTracer: () => broken });
    const text = await generateText({
      model: withArclight(h.provider('fixture-model')),
      prompt: 'Still works?',
      tools: { calculator: calculatorTool() },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      telemetry: { integrations: [integration] },
    });
    expect(text.text).toBe('Fixture answer to: Still works?');
    const streamed = streamText({
      model: withArclight(h.provider('fixture-model')),
      prompt: 'Streams too?',
      maxRetries: 0,
      telemetry: { integrations: [integration] },
    });
    expect(await streamed.text).toBe('Fixture answer to: Streams too?');
  });
});
