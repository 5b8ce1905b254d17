import { respond } from '@arclight/test-fixtures';
import { generateObject, generateText, jsonSchema, registerTelemetry } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArclightTelemetry, withArclight } from '../src/index.js';
import { type Harness, harness, one, triplets } from './support.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

describe('registered globally with registerTelemetry', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
    registerTelemetry(new ArclightTelemetry(h.tracer, { agentName: 'global' }));
  });
  afterAll(async () => {
    (globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: unknown[] }).AI_SDK_TELEMETRY_INTEGRATIONS =
      [];
    await h.close();
  });

  it('records every call without a telemetry option, and none that opt out', async () => {
    const model = withArclight(h.provider('fixture-model'));
    const { spans } = await h.run(async () => {
      await generateText({ model, prompt: 'Recorded', maxRetries: 0 });
      await generateText({
        model,
        prompt: 'Not recorded',
        maxRetries: 0,
        telemetry: { isEnabled: false },
      });
    });
    expect(h.llm.requests).toHaveLength(2);
    expect(one(spans, 'openai.chat.completion').attributes['gen_ai.prompt.0.content']).toBe(
      'Recorded',
    );
    expect(triplets(spans).map((t) => t.metadata.agent_name)).toEqual(['global']);
  });

  it('marks a failed generateObject model call as an error', async () => {
    h.llm.use(respond('broken', { error: { status: 500, message: 'object failure' } }));
    const { spans } = await h.run(async () => {
      await expect(
        generateObject({
          model: withArclight(h.provider('fixture-model')),
          schema: jsonSchema({ type: 'object', properties: {} }),
          prompt: 'broken object',
          maxRetries: 0,
        }),
      ).rejects.toThrow(/object failure/);
    });
    const llm = one(spans, 'openai.chat.completion');
    expect(llm.status.status_code).toBe('ERROR');
    expect(llm.parent_id).toBe(one(spans, 'ai.generateObject').span_id);
    expect(llm.attributes['gen_ai.prompt.0.content']).toBe('broken object');
  });
});
