import { resetWarnings, WarningCodes } from '@arclight/core';
import { instrumentOpenAI } from '@arclight/instrumentation-openai';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { OpenAIChatCompletionsModel, run, setTraceProcessors } from '@openai/agents';
import OpenAI from 'openai';
import OpenAI6 from 'openai6';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LightningTracingProcessor } from '../src/index.js';
import { byName, TracerHarness } from './harness.js';
import { buildAgents, mathResponder } from './scenario.js';

// The app instruments its own copy of openai (6); the agents use another copy (7), not instrumented.
let llm: FixtureLlm;
let harness: TracerHarness;
let uninstrument: () => void;

beforeAll(async () => {
  llm = await startFixtureLlm({ recordings: false });
  harness = new TracerHarness();
  uninstrument = instrumentOpenAI(OpenAI6, {
    tracerProvider: harness.tracer.tracerProvider,
    requestTokenIds: true,
  });
  setTraceProcessors([new LightningTracingProcessor({ tracer: harness.tracer })]);
});
afterAll(async () => {
  uninstrument();
  setTraceProcessors([]);
  resetWarnings();
  await harness.shutdown();
  await llm.close();
});

describe('two copies of openai: the decision is per call', () => {
  it("the SDK's client copy is not instrumented: every call is exactly one LLM-call span (the generation), with a warning", async () => {
    llm.use(mathResponder);
    const client = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'fixture', maxRetries: 0 });
    const { triage } = buildAgents({
      model: new OpenAIChatCompletionsModel(client, 'fixture-model'),
    });
    const codes: string[] = [];
    const listener = (warning: Error & { code?: string }) => codes.push(String(warning.code));
    process.on('warning', listener);
    try {
      const { spans } = await harness.rollout(() => run(triage, 'What is 2 + 3?'));
      await new Promise((resolve) => setImmediate(resolve));
      const calls = byName(spans, /^openai\.(chat\.completion|responses\.create|completion)$/);
      expect(calls).toHaveLength(llm.requests.length);
      expect(calls.every((c) => c.attributes['openai_agents.span.type'] === 'generation')).toBe(
        true,
      );
      expect(byName(spans, 'openai_agents.generation')).toHaveLength(0);
    } finally {
      process.off('warning', listener);
    }
    expect(codes).toContain(WarningCodes.UNINSTRUMENTED_CLIENT);
  });
});
