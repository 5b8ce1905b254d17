import { claimLlmCall } from '@arclight/instrumentation';
import { context } from '@opentelemetry/api';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { LightningTracingProcessor } from '../src/index.js';
import { ended, makeSpan, makeTrace, tick } from './fakes.js';
import { byName, only, parentOf, TracerHarness } from './harness.js';

const harness = new TracerHarness();
afterAll(() => harness.shutdown());

function newProcessor(options: ConstructorParameters<typeof LightningTracingProcessor>[0] = {}) {
  return new LightningTracingProcessor({ tracer: harness.tracer, ...options });
}

const completion = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'm',
  prompt_token_ids: [1, 2, 3],
  choices: [
    {
      index: 0,
      finish_reason: 'tool_calls',
      token_ids: [7, 8, 2],
      logprobs: { content: [{ token: 'a', logprob: -0.5 }] },
      message: {
        role: 'assistant',
        content: 'thinking',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }],
      },
    },
  ],
  usage: { prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 },
};

const generationData = {
  type: 'generation',
  model: 'm',
  model_config: { temperature: 0.5, top_p: 0.9 },
  input: [
    { role: 'system', content: 'sys' },
    { role: 'user', content: [{ type: 'text', text: 'hi' }] },
  ],
  output: [completion],
};

/** Runs a generation span under an agent span; returns the stored spans. */
async function generationRollout(
  processor: LightningTracingProcessor,
  data: object = generationData,
  /** An instrumented client recorded the call (it claims it in the context the SDK calls the model in). */
  clientRecorded = false,
) {
  const { spans } = await harness.rollout(async () => {
    const trace = makeTrace('t-gen');
    await processor.onTraceStart(trace);
    const agent = makeSpan('s-agent', { type: 'agent', name: 'solver' }, { traceId: 't-gen' });
    await processor.onSpanStart(agent);
    const gen = makeSpan(
      's-gen',
      { type: 'generation' },
      { traceId: 't-gen', parentId: 's-agent' },
    );
    await processor.onSpanStart(gen);
    if (clientRecorded) claimLlmCall(context.active(), 'openai', 'm');
    Object.assign(gen.spanData, data);
    await processor.onSpanEnd(ended(gen));
    await processor.onSpanEnd(ended(agent));
    await processor.onTraceEnd(trace);
  });
  return spans;
}

describe('generation spans', () => {
  it('are LLM-call spans with the gen_ai layout when no other instrumentation records the call', async () => {
    const spans = await generationRollout(newProcessor());
    const call = only(spans, 'openai.chat.completion');
    expect(call.attributes).toMatchObject({
      'gen_ai.request.model': 'm',
      'gen_ai.request.temperature': 0.5,
      'gen_ai.request.top_p': 0.9,
      'gen_ai.prompt.0.content': 'sys',
      'gen_ai.prompt.1.content': '[{"type":"text","text":"hi"}]',
      'gen_ai.response.id': 'chatcmpl-1',
      'gen_ai.completion.0.content': 'thinking',
      'gen_ai.completion.0.tool_calls.0.id': 'c1',
      'gen_ai.completion.0.tool_calls.0.arguments': '{"x":1}',
      'gen_ai.usage.total_tokens': 6,
      prompt_token_ids: [1, 2, 3],
      response_token_ids: [7, 8, 2],
      'logprobs.content': '[{"token":"a","logprob":-0.5}]',
    });
    expect(call.parent_id).toBe(only(spans, 'openai_agents.agent').span_id);
    const tool = only(spans, 'tool_call.f');
    expect(tool.parent_id).toBe(call.span_id);
    expect(tool.attributes).toMatchObject({ 'tool.name': 'f', 'tool.call.id': 'c1' });
  });

  it('step aside when an instrumented client recorded the call (auto), or when told to', async () => {
    {
      const spans = await generationRollout(newProcessor(), generationData, true);
      expect(byName(spans, 'openai.chat.completion')).toHaveLength(0);
      const generation = only(spans, 'openai_agents.generation');
      expect(generation.attributes['openai_agents.model']).toBe('m');
      expect(generation.attributes['gen_ai.prompt.0.content']).toBeUndefined();
      expect(byName(spans, 'tool_call.f')).toHaveLength(0);
      // Forced on, even when a client recorded the call too.
      const forced = await generationRollout(
        newProcessor({ llmCallSpans: true }),
        generationData,
        true,
      );
      expect(byName(forced, 'openai.chat.completion')).toHaveLength(1);
    }
    const off = await generationRollout(newProcessor({ llmCallSpans: false }));
    expect(byName(off, 'openai_agents.generation')).toHaveLength(1);
  });

  it('drop content but keep token ids with captureContent: false', async () => {
    const spans = await generationRollout(newProcessor({ captureContent: false }));
    const call = only(spans, 'openai.chat.completion');
    expect(call.attributes['gen_ai.prompt.0.content']).toBeUndefined();
    expect(call.attributes['gen_ai.completion.0.content']).toBeUndefined();
    expect(call.attributes['gen_ai.completion.0.tool_calls.0.arguments']).toBeUndefined();
    expect(call.attributes['gen_ai.prompt.0.role']).toBe('system');
    expect(call.attributes.prompt_token_ids).toEqual([1, 2, 3]);
    expect(only(spans, 'tool_call.f').attributes['tool.parameters']).toBeUndefined();
  });

  it('do not give the SDK placeholder id FAKE_ID of a streamed completion as a response id', async () => {
    const streamed = { ...completion, id: 'FAKE_ID' };
    const spans = await generationRollout(newProcessor(), {
      ...generationData,
      output: [streamed],
    });
    const call = only(spans, 'openai.chat.completion');
    expect(call.attributes['gen_ai.response.id']).toBeUndefined();
    expect(call.attributes['gen_ai.request.streaming']).toBe(true);
  });

  it('accept plain messages as output and the span usage as a fallback', async () => {
    const data = {
      type: 'generation',
      model: 'm',
      output: [{ role: 'assistant', content: 'plain' }],
      usage: { input_tokens: 4, output_tokens: 2 },
    };
    const call = only(await generationRollout(newProcessor(), data), 'openai.chat.completion');
    expect(call.attributes['gen_ai.completion.0.content']).toBe('plain');
    expect(call.attributes['gen_ai.usage.prompt_tokens']).toBe(4);
    expect(call.attributes['gen_ai.usage.total_tokens']).toBe(6);
  });
});

describe('trace roots', () => {
  it('outlive an SDK trace ended while its spans run (0.0.x streamed runs), and keep nesting them', async () => {
    const processor = newProcessor();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(tick(0)));
    try {
      const { spans } = await harness.rollout(async () => {
        const trace = makeTrace('t-early');
        await processor.onTraceStart(trace);
        const triage = makeSpan(
          's-triage',
          { type: 'agent', name: 'triage' },
          { traceId: 't-early' },
        );
        await processor.onSpanStart(triage);
        await processor.onTraceEnd(trace);
        // at a handoff, 0.0.x starts the next agent (with no parent) before the first one ends
        const reporter = makeSpan(
          's-rep',
          { type: 'agent', name: 'reporter' },
          { traceId: 't-early' },
        );
        await processor.onSpanStart(reporter);
        await processor.onSpanEnd(ended(triage));
        await processor.onSpanEnd(ended(reporter));
      });
      const root = only(spans, 'openai_agents.trace');
      const agents = byName(spans, 'openai_agents.agent');
      expect(agents.map((agent) => parentOf(spans, agent)?.name)).toEqual([
        'openai_agents.trace',
        'openai_agents.trace',
      ]);
      expect(root.end_time).toBe(Math.max(...agents.map((agent) => agent.end_time!)));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('other span types', () => {
  it('map function, handoff, guardrail, custom, mcp_tools, task/turn and unknown types', async () => {
    const processor = newProcessor();
    const { spans } = await harness.rollout(async () => {
      const trace = makeTrace('t-types', { groupId: 'g1', metadata: { user: 'u1', n: 2 } });
      await processor.onTraceStart(trace);
      const datas = [
        { type: 'task', name: 'Agent workflow', usage: { requests: 2, input_tokens: 10 } },
        { type: 'turn', turn: 1, agent_name: 'a' },
        { type: 'function', name: 'lookup', input: '{"q":"x"}', output: '{"r":1}', mcp_data: 'm' },
        { type: 'handoff', from_agent: 'a', to_agent: 'b' },
        { type: 'guardrail', name: 'no_pii', triggered: true },
        { type: 'custom', name: 'step', data: { k: [1, 2], nested: { a: 1 } } },
        { type: 'mcp_tools', server: 'srv', result: ['t1', 't2'] },
        {
          type: 'transcription',
          model: 'whisper',
          input: { data: 'b64', format: 'pcm' },
          output: 'hi',
        },
      ];
      for (const [i, data] of datas.entries()) {
        const span = makeSpan(`s${i}`, data, { traceId: 't-types' });
        await processor.onSpanStart(span);
        await processor.onSpanEnd(ended(span));
      }
      await processor.onTraceEnd(trace);
    });
    expect(only(spans, 'openai_agents.trace').attributes).toMatchObject({
      'openai_agents.trace.group_id': 'g1',
      'openai_agents.trace.metadata.user': 'u1',
      'openai_agents.trace.metadata.n': 2,
    });
    expect(only(spans, 'openai_agents.task').attributes).toMatchObject({
      'openai_agents.task.name': 'Agent workflow',
      'openai_agents.usage.requests': 2,
    });
    expect(only(spans, 'openai_agents.turn').attributes).toMatchObject({
      'openai_agents.turn.number': 1,
      'openai_agents.turn.agent_name': 'a',
    });
    expect(only(spans, 'openai_agents.function').attributes).toMatchObject({
      'tool.name': 'lookup',
      'tool.parameters': '{"q":"x"}',
      'tool.output': '{"r":1}',
      'openai_agents.function.mcp_data': 'm',
    });
    expect(only(spans, 'openai_agents.handoff').attributes).toMatchObject({
      'openai_agents.handoff.from_agent': 'a',
      'openai_agents.handoff.to_agent': 'b',
    });
    expect(only(spans, 'openai_agents.guardrail').attributes).toMatchObject({
      'openai_agents.guardrail.name': 'no_pii',
      'openai_agents.guardrail.triggered': true,
    });
    expect(only(spans, 'openai_agents.custom').attributes).toMatchObject({
      'openai_agents.custom.name': 'step',
      'openai_agents.custom.data': '{"k":[1,2],"nested":{"a":1}}',
    });
    expect(only(spans, 'openai_agents.mcp_tools').attributes).toMatchObject({
      'openai_agents.mcp_tools.server': 'srv',
      'openai_agents.mcp_tools.result': ['t1', 't2'],
    });
    expect(only(spans, 'openai_agents.transcription').attributes).toMatchObject({
      'openai_agents.span.type': 'transcription',
      'openai_agents.data.model': 'whisper',
      'openai_agents.data.input': '{"data":"b64","format":"pcm"}',
      'openai_agents.data.output': 'hi',
    });
  });

  it('record span errors as status ERROR with an exception event and the error data', async () => {
    const processor = newProcessor();
    const { spans } = await harness.rollout(async () => {
      const span = makeSpan('s-err', { type: 'function', name: 'f', input: '', output: '' });
      await processor.onSpanStart(span);
      span.error = { message: 'boom', data: { detail: 'x' } };
      await processor.onSpanEnd(ended(span));
    });
    const fn = only(spans, 'openai_agents.function');
    expect(fn.status).toMatchObject({ status_code: 'ERROR', description: 'boom' });
    expect(fn.events[0]?.attributes['exception.message']).toBe('boom');
    expect(fn.attributes['openai_agents.error.data']).toBe('{"detail":"x"}');
  });
});

describe('timing', () => {
  it('uses the SDK times, from the start millisecond to the millisecond after the end', async () => {
    const processor = newProcessor();
    const span = makeSpan('s-time', { type: 'custom', name: 'c', data: {} });
    span.startedAt = '2026-02-03T04:05:06.007Z';
    const { spans } = await harness.rollout(async () => {
      await processor.onSpanStart(span);
      span.endedAt = '2026-02-03T04:05:06.107Z';
      await processor.onSpanEnd(span);
    });
    const stored = only(spans, 'openai_agents.custom');
    const start = Date.parse('2026-02-03T04:05:06.007Z') / 1000;
    expect(stored.start_time).toBeCloseTo(start, 6);
    expect(stored.end_time).toBeCloseTo(start + 0.101, 6);
  });
});
