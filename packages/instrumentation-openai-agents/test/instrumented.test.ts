import { TracerTraceToTriplet } from '@arclight/adapter';
import type { Span } from '@arclight/core';
import { isInstrumented } from '@arclight/core';
import { instrumentOpenAI } from '@arclight/instrumentation-openai';
import { type FixtureLlm, startFixtureLlm } from '@arclight/test-fixtures';
import { run, setTraceProcessors } from '@openai/agents';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LightningTracingProcessor } from '../src/index.js';
import { agentOf, byName, byStart, only, parentOf, TracerHarness } from './harness.js';
import { buildAgents, chatModel, mathResponder } from './scenario.js';

// With @arclight/instrumentation-openai active, its `openai.chat.completion` span is the LLM call; the SDK's generation
// spans step aside ('auto').
let llm: FixtureLlm;
let harness: TracerHarness;
let uninstrument: () => void;

beforeAll(async () => {
  llm = await startFixtureLlm({ recordings: false });
  harness = new TracerHarness();
  uninstrument = instrumentOpenAI(OpenAI, {
    tracerProvider: harness.tracer.tracerProvider,
    requestTokenIds: true,
  });
  setTraceProcessors([new LightningTracingProcessor({ tracer: harness.tracer })]);
});
afterEach(() => llm.reset());
afterAll(async () => {
  uninstrument();
  setTraceProcessors([]);
  await harness.shutdown();
  await llm.close();
});

/** The generation span whose interval holds `span` most tightly (what upstream's repair picks). */
function enclosingGeneration(spans: readonly Span[], span: Span): Span | undefined {
  const holders = byName(spans, 'openai_agents.generation').filter(
    (g) => g.start_time! <= span.start_time! && g.end_time! >= span.end_time!,
  );
  return holders.sort((a, b) => a.end_time! - a.start_time! - (b.end_time! - b.start_time!))[0];
}

describe('with @arclight/instrumentation-openai active', () => {
  it('names generation spans openai_agents.generation and leaves the LLM call to @arclight/instrumentation-openai', async () => {
    expect(isInstrumented('openai')).toBe(true);
    llm.use(mathResponder);
    const { triage } = buildAgents({ model: chatModel(llm.baseUrl) });
    const { result, spans } = await harness.rollout(() => run(triage, 'What is 2 + 3?'));
    expect(result.finalOutput).toBe('The answer is 5.');

    const generations = byStart(byName(spans, 'openai_agents.generation'));
    const calls = byStart(byName(spans, 'openai.chat.completion'));
    expect(generations).toHaveLength(llm.requests.length);
    expect(calls).toHaveLength(llm.requests.length);
    // The generation spans carry a summary, not the call itself.
    for (const generation of generations) {
      expect(generation.attributes['openai_agents.model']).toBe('fixture-model');
      expect(generation.attributes['gen_ai.prompt.0.role']).toBeUndefined();
      expect(agentOf(spans, generation)).toBeDefined();
    }
    // @arclight/instrumentation-openai's spans carry the call, with token ids (requestTokenIds).
    for (const call of calls) {
      expect(call.attributes['openai_agents.span.type']).toBeUndefined();
      expect(Array.isArray(call.attributes.prompt_token_ids)).toBe(true);
    }
    // The SDK gives processors no way to make its spans the active OTel context, so the calls are not
    // children of the generation spans — but each lies inside exactly its generation's interval.
    calls.forEach((call, i) => {
      expect(parentOf(spans, call)?.name).not.toBe('openai_agents.generation');
      expect(enclosingGeneration(spans, call)?.span_id).toBe(generations[i]!.span_id);
    });
    expect(only(spans, 'openai_agents.trace').parent_id).toBeNull();
  });

  it('lets the default adapter count each call once and attribute it to its agent (repair by time)', async () => {
    llm.use(mathResponder);
    const { triage } = buildAgents({ model: chatModel(llm.baseUrl) });
    const { spans } = await harness.rollout(() => run(triage, 'What is 7 + 8?'));
    const triplets = new TracerTraceToTriplet().adapt(spans);
    expect(triplets).toHaveLength(llm.requests.length);
    expect(triplets.map((t) => t.metadata.agent_name)).toEqual([
      'triage',
      'math_agent',
      'math_agent',
    ]);
    for (const triplet of triplets) {
      expect((triplet.response as { token_ids: number[] }).token_ids.length).toBeGreaterThan(0);
    }
  });

  it('switches back to LLM-call generation spans once @arclight/instrumentation-openai is uninstrumented', async () => {
    const restore = uninstrument;
    restore();
    try {
      expect(isInstrumented('openai')).toBe(false);
      llm.use(mathResponder);
      const { triage } = buildAgents({ model: chatModel(llm.baseUrl) });
      const { spans } = await harness.rollout(() => run(triage, 'What is 1 + 2?'));
      expect(byName(spans, 'openai_agents.generation')).toHaveLength(0);
      const calls = byName(spans, 'openai.chat.completion');
      expect(calls).toHaveLength(llm.requests.length);
      expect(calls.every((c) => c.attributes['openai_agents.span.type'] === 'generation')).toBe(
        true,
      );
    } finally {
      uninstrument = instrumentOpenAI(OpenAI, {
        tracerProvider: harness.tracer.tracerProvider,
        requestTokenIds: true,
      });
    }
  });
});
