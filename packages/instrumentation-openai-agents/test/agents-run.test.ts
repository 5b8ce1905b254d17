import { TracerTraceToTriplet } from '@arclight/adapter';
import type { Span } from '@arclight/core';
import { type FixtureLlm, respond, startFixtureLlm } from '@arclight/test-fixtures';
import { run, setTraceProcessors } from '@openai/agents';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LightningTracingProcessor } from '../src/index.js';
import { agentOf, byName, byStart, only, parentOf, TracerHarness } from './harness.js';
import { buildAgents, chatModel, mathResponder } from './scenario.js';

// @arclight/instrumentation-openai is not active in this file: generation spans are the LLM-call spans ('auto').
let llm: FixtureLlm;
let harness: TracerHarness;
let processor: LightningTracingProcessor;

beforeAll(async () => {
  llm = await startFixtureLlm({ recordings: false });
  harness = new TracerHarness();
  processor = new LightningTracingProcessor({ tracer: harness.tracer });
  setTraceProcessors([processor]);
});
afterEach(() => llm.reset());
afterAll(async () => {
  setTraceProcessors([]);
  await harness.shutdown();
  await llm.close();
});

function llmSpans(spans: readonly Span[]): Span[] {
  return byStart(byName(spans, 'openai.chat.completion'));
}

async function runScenario(question = 'What is 2 + 3?', returnTokenIds = true) {
  llm.use(mathResponder);
  const { triage } = buildAgents({ model: chatModel(llm.baseUrl), returnTokenIds });
  return harness.rollout(() => run(triage, question));
}

describe('a handoff + tool run', () => {
  it('maps the SDK tree: trace → task → agent → turn → generation / handoff / function', async () => {
    const { result, spans } = await runScenario();
    expect(result.finalOutput).toBe('The answer is 5.');

    const root = only(spans, 'openai_agents.trace');
    expect(root.parent_id).toBeNull();
    expect(root.attributes['openai_agents.trace.name']).toBe('Agent workflow');
    const task = only(spans, 'openai_agents.task');
    expect(task.parent_id).toBe(root.span_id);
    const agents = byStart(byName(spans, 'openai_agents.agent'));
    expect(agents.map((a) => a.attributes['agent.name'])).toEqual(['triage', 'math_agent']);
    expect(agents.every((a) => a.parent_id === task.span_id)).toBe(true);
    expect(agents[0]!.attributes['openai_agents.agent.handoffs']).toEqual(['math_agent']);
    expect(agents[1]!.attributes['openai_agents.agent.tools']).toEqual(['add']);

    const turns = byStart(byName(spans, 'openai_agents.turn'));
    expect(turns.map((t) => t.attributes['openai_agents.turn.number'])).toEqual([1, 2, 3]);
    expect(turns.map((t) => parentOf(spans, t)?.attributes['agent.name'])).toEqual([
      'triage',
      'math_agent',
      'math_agent',
    ]);

    const calls = llmSpans(spans);
    expect(calls).toHaveLength(llm.requests.length);
    expect(calls).toHaveLength(3);
    expect(calls.map((c) => parentOf(spans, c)?.span_id)).toEqual(turns.map((t) => t.span_id));
    expect(calls.map((c) => agentOf(spans, c))).toEqual(['triage', 'math_agent', 'math_agent']);
    expect(calls.every((c) => c.attributes['openai_agents.span.type'] === 'generation')).toBe(true);

    const handoff = only(spans, 'openai_agents.handoff');
    expect(handoff.parent_id).toBe(turns[0]!.span_id);
    expect(handoff.attributes['openai_agents.handoff.from_agent']).toBe('triage');
    expect(handoff.attributes['openai_agents.handoff.to_agent']).toBe('math_agent');

    const fn = only(spans, 'openai_agents.function');
    expect(fn.parent_id).toBe(turns[1]!.span_id);
    expect(fn.attributes['tool.name']).toBe('add');
    expect(JSON.parse(String(fn.attributes['tool.parameters']))).toEqual({ a: 2, b: 3 });
    expect(fn.attributes['tool.output']).toBe('5');

    expect(only(spans, 'tool_call.transfer_to_math_agent').parent_id).toBe(calls[0]!.span_id);
    expect(only(spans, 'tool_call.add').parent_id).toBe(calls[1]!.span_id);

    // One OTel trace; every span within its parent's interval; everything ended.
    expect(new Set(spans.map((s) => s.trace_id)).size).toBe(1);
    for (const span of spans) {
      const parent = parentOf(spans, span);
      if (!parent) continue;
      expect(span.start_time!).toBeGreaterThanOrEqual(parent.start_time!);
      expect(span.end_time!).toBeLessThanOrEqual(parent.end_time!);
    }
    expect(processor.spansInFlight).toBe(0);
  });

  it('fills the LLM-call spans like @arclight/instrumentation-openai: messages, tool calls, usage, token ids', async () => {
    const { spans } = await runScenario();
    const calls = llmSpans(spans);
    const [first, second, last] = calls.map((c) => c.attributes);
    expect(first).toMatchObject({
      'gen_ai.system': 'OpenAI',
      'gen_ai.request.model': 'fixture-model',
      'gen_ai.prompt.0.role': 'system',
      'gen_ai.prompt.0.content': 'Route the user to the right specialist.',
      'gen_ai.prompt.1.role': 'user',
      'gen_ai.prompt.1.content': 'What is 2 + 3?',
      'gen_ai.completion.0.role': 'assistant',
      'gen_ai.completion.0.finish_reason': 'tool_calls',
      'gen_ai.completion.0.tool_calls.0.name': 'transfer_to_math_agent',
    });
    expect(second).toMatchObject({
      'gen_ai.prompt.2.role': 'assistant',
      'gen_ai.prompt.2.tool_calls.0.name': 'transfer_to_math_agent',
      'gen_ai.prompt.3.role': 'tool',
      'gen_ai.completion.0.tool_calls.0.name': 'add',
      'gen_ai.completion.0.tool_calls.0.arguments': '{"a":2,"b":3}',
    });
    expect(last).toMatchObject({
      'gen_ai.completion.0.content': 'The answer is 5.',
      'gen_ai.completion.0.finish_reason': 'stop',
    });

    calls.forEach((call, i) => {
      const body = llm.requests[i]!.body as { messages: never[]; tools?: never[] };
      const attributes = call.attributes;
      expect(attributes['gen_ai.response.id']).toMatch(/^chatcmpl-/);
      expect(attributes.prompt_token_ids).toEqual(
        llm.tokenizer.encodeChat(body.messages, body.tools),
      );
      expect(attributes['gen_ai.usage.prompt_tokens']).toBe(
        (attributes.prompt_token_ids as number[]).length,
      );
      expect(attributes['gen_ai.usage.completion_tokens']).toBe(
        (attributes.response_token_ids as number[]).length,
      );
    });
    expect(llm.tokenizer.decode(last!.response_token_ids as number[])).toBe(
      'The answer is 5.<|im_end|>',
    );
    expect(llm.tokenizer.decode(second!.response_token_ids as number[])).toContain('"name": "add"');
  });

  it('gives the default adapter one triplet per model call, attributed to its agent', async () => {
    const { spans } = await runScenario();
    const triplets = new TracerTraceToTriplet().adapt(spans);
    expect(triplets).toHaveLength(llm.requests.length);
    expect(triplets.map((t) => t.metadata.agent_name)).toEqual([
      'triage',
      'math_agent',
      'math_agent',
    ]);
    const calls = llmSpans(spans);
    triplets.forEach((triplet, i) => {
      expect((triplet.prompt as { token_ids: number[] }).token_ids).toEqual(
        calls[i]!.attributes.prompt_token_ids,
      );
      expect((triplet.response as { token_ids: number[] }).token_ids).toEqual(
        calls[i]!.attributes.response_token_ids,
      );
    });
    const onlyMath = new TracerTraceToTriplet({ agentMatch: /^math/ }).adapt(spans);
    expect(onlyMath).toHaveLength(2);
  });

  it('writes no token ids when the request did not ask for them', async () => {
    const { spans } = await runScenario('What is 4 + 4?', false);
    const calls = llmSpans(spans);
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(call.attributes.prompt_token_ids).toBeUndefined();
      expect(call.attributes.response_token_ids).toBeUndefined();
      expect(call.attributes['gen_ai.completion.0.role']).toBe('assistant');
    }
  });
});

describe('errors', () => {
  it('records a tool that throws on its function span; the run goes on', async () => {
    llm.use(mathResponder);
    const { triage } = buildAgents({ model: chatModel(llm.baseUrl), failingTool: true });
    const { spans } = await harness.rollout(() => run(triage, 'What is 2 + 3?'));
    const fn = only(spans, 'openai_agents.function');
    expect(fn.status.status_code).toBe('ERROR');
    expect(fn.status.description).toMatch(/Error running tool/);
    expect(fn.events.map((e) => e.name)).toContain('exception');
    expect(String(fn.attributes['tool.output'])).toMatch(/error/i);
    expect(llmSpans(spans)).toHaveLength(llm.requests.length);
    expect(only(spans, 'openai_agents.trace').status.status_code).toBe('UNSET');
  });

  it('records a model error on the LLM span and up the tree, and still ends the root', async () => {
    llm.use(respond(() => true, { error: { status: 500, message: 'model exploded' } }));
    const { triage } = buildAgents({ model: chatModel(llm.baseUrl) });
    const { error, spans } = await harness.rolloutSettled(() => run(triage, 'What is 2 + 3?'));
    expect(String(error)).toMatch(/model exploded/);
    const call = only(spans, 'openai.chat.completion');
    expect(call.status.status_code).toBe('ERROR');
    expect(call.status.description).toMatch(/model exploded/);
    for (const name of ['openai_agents.turn', 'openai_agents.agent', 'openai_agents.task']) {
      expect(only(spans, name).status.status_code).toBe('ERROR');
    }
    // The SDK never ends a trace whose run threw; the processor ends the root itself.
    const root = only(spans, 'openai_agents.trace');
    expect(root.status.status_code).toBe('ERROR');
    expect(call.parent_id).not.toBeNull();
    expect(processor.spansInFlight).toBe(0);
  });
});

describe('attribution', () => {
  it('keeps concurrent rollouts apart', async () => {
    llm.use(mathResponder);
    const { triage } = buildAgents({ model: chatModel(llm.baseUrl), returnTokenIds: true });
    const questions = [1, 2, 3, 4, 5].map((n) => `What is ${n} + ${n * 10}?`);
    const rollouts = await Promise.all(questions.map((q) => harness.rollout(() => run(triage, q))));
    expect(llm.requests).toHaveLength(15);
    rollouts.forEach(({ result, spans }, i) => {
      const n = i + 1;
      expect(result.finalOutput).toBe(`The answer is ${n * 11}.`);
      expect(byName(spans, 'openai_agents.trace')).toHaveLength(1);
      expect(new Set(spans.map((s) => s.attributes['openai_agents.trace_id'] ?? 'tool')).size).toBe(
        2,
      );
      const calls = llmSpans(spans);
      expect(calls).toHaveLength(3);
      for (const call of calls) {
        expect(call.attributes['gen_ai.prompt.1.content']).toBe(questions[i]);
      }
      expect(calls.map((c) => agentOf(spans, c))).toEqual(['triage', 'math_agent', 'math_agent']);
      expect(only(spans, 'openai_agents.function').attributes['tool.output']).toBe(String(n * 11));
    });
  });

  it('still attributes spans when another processor before it awaits (additive mode)', async () => {
    const seen: string[] = [];
    const slow = {
      start() {},
      async onTraceStart() {
        await new Promise((r) => setTimeout(r, 2));
      },
      async onTraceEnd() {},
      async onSpanStart(span: { spanData: { type: string } }) {
        await new Promise((r) => setTimeout(r, 1));
        seen.push(span.spanData.type);
      },
      async onSpanEnd() {
        await new Promise((r) => setTimeout(r, 1));
      },
      async shutdown() {},
      async forceFlush() {},
    };
    const additive = new LightningTracingProcessor({ tracer: harness.tracer });
    setTraceProcessors([slow, additive]);
    try {
      llm.use(mathResponder);
      const { triage } = buildAgents({ model: chatModel(llm.baseUrl) });
      const [a, b] = await Promise.all([
        harness.rollout(() => run(triage, 'What is 1 + 1?')),
        harness.rollout(() => run(triage, 'What is 2 + 2?')),
      ]);
      // The SDK does not await span callbacks: the last ones run after `run()` resolved (and after the
      // rollout's traceContext ended); their spans still belong to the rollout once written.
      await new Promise((r) => setTimeout(r, 30));
      await harness.tracer.flush();
      expect(seen).toContain('generation');
      expect(additive.spansInFlight).toBe(0);
      for (const [rollout, question] of [
        [a, 'What is 1 + 1?'],
        [b, 'What is 2 + 2?'],
      ] as const) {
        const spans = harness.sink.spans(rollout.rolloutId);
        expect(
          only(spans, 'openai_agents.task').attributes['openai_agents.task.name'],
        ).toBeDefined();
        const calls = llmSpans(spans);
        expect(calls).toHaveLength(3);
        expect(calls.every((c) => c.attributes['gen_ai.prompt.1.content'] === question)).toBe(true);
        expect(calls.map((c) => agentOf(spans, c))).toEqual(['triage', 'math_agent', 'math_agent']);
      }
    } finally {
      setTraceProcessors([processor]);
    }
  });
});

describe('streaming', () => {
  it('records streamed calls (rebuilt by the SDK: content and tool calls, no token ids)', async () => {
    llm.use(mathResponder);
    const { triage } = buildAgents({ model: chatModel(llm.baseUrl), returnTokenIds: true });
    const { result, spans } = await harness.rollout(async () => {
      const streamed = await run(triage, 'What is 6 + 7?', { stream: true });
      for await (const _ of streamed.toTextStream()) {
        // consume
      }
      await streamed.completed;
      return streamed;
    });
    expect(result.finalOutput).toBe('The answer is 13.');
    const calls = llmSpans(spans);
    expect(calls).toHaveLength(llm.requests.length);
    const ids = calls.map((c) => c.attributes['gen_ai.response.id']);
    expect(new Set(ids).size).toBe(3);
    expect(calls[1]!.attributes['gen_ai.completion.0.tool_calls.0.arguments']).toBe(
      '{"a":6,"b":7}',
    );
    expect(calls[2]!.attributes['gen_ai.completion.0.content']).toBe('The answer is 13.');
    // The SDK rebuilds a streamed completion from the deltas and drops vendor fields such as token_ids.
    expect(calls.every((c) => c.attributes.response_token_ids === undefined)).toBe(true);
    expect(new TracerTraceToTriplet().adapt(spans)).toHaveLength(3);
    expect(only(spans, 'openai_agents.trace').end_time).not.toBeNull();
  });
});
