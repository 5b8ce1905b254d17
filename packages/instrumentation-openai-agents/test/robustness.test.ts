import { afterAll, describe, expect, it } from 'vitest';
import {
  type AgentsSpanLike,
  type AgentsTraceLike,
  LightningTracingProcessor,
} from '../src/index.js';
import { ended, makeSpan, makeTrace } from './fakes.js';
import { byName, only, TracerHarness } from './harness.js';

const harness = new TracerHarness();
afterAll(() => harness.shutdown());

function hostile(): object {
  const cyclic: Record<string, unknown> = { type: 'custom', name: 'cyclic' };
  cyclic.data = cyclic;
  return cyclic;
}

function throwingGetters(): AgentsSpanLike {
  return new Proxy({} as AgentsSpanLike, {
    get() {
      throw new Error('getter exploded');
    },
  });
}

describe('malformed input', () => {
  it('never throws nor rejects, and keeps working afterwards', async () => {
    const processor = new LightningTracingProcessor({ tracer: harness.tracer, llmCallSpans: true });
    const junk: unknown[] = [
      undefined,
      null,
      42,
      'span',
      {},
      { spanId: 5, traceId: {} },
      { spanId: 'x1', traceId: 't', spanData: null },
      { spanId: 'x2', traceId: 't', spanData: 'generation' },
      { spanId: 'x3', traceId: 't', spanData: hostile(), startedAt: 'not a date' },
      {
        spanId: 'x4',
        traceId: 't',
        parentId: 'missing',
        spanData: {
          type: 'generation',
          input: 'not an array',
          output: [{ choices: 'nope' }, null, { choices: [null, { message: 7 }] }],
          usage: { input_tokens: Number.NaN },
        },
        error: 'not an object',
      },
      {
        spanId: 'x5',
        traceId: 't',
        spanData: { type: 'response', _input: [null, 3, { type: 'function_call' }], _response: 7 },
      },
      {
        spanId: 'x6',
        traceId: 't',
        spanData: { type: 'agent', name: { not: 'a string' }, handoffs: [1, 'b'] },
      },
      throwingGetters(),
    ];
    await harness.rollout(async () => {
      for (const item of junk) {
        const span = item as AgentsSpanLike;
        const trace = item as AgentsTraceLike;
        expect(() => processor.onTraceStart(trace)).not.toThrow();
        await expect(processor.onTraceStart(trace)).resolves.toBeUndefined();
        await expect(processor.onSpanStart(span)).resolves.toBeUndefined();
        await expect(processor.onSpanEnd(span)).resolves.toBeUndefined();
        await expect(processor.onTraceEnd(trace)).resolves.toBeUndefined();
      }
    });
    await expect(processor.forceFlush()).resolves.toBeUndefined();

    const { spans } = await harness.rollout(async () => {
      const span = makeSpan('ok', { type: 'agent', name: 'still-fine' }, { traceId: 'fine' });
      await processor.onSpanStart(span);
      await processor.onSpanEnd(ended(span));
    });
    expect(only(spans, 'openai_agents.agent').attributes['agent.name']).toBe('still-fine');
  });

  it('survives a tracer provider that throws', async () => {
    const processor = new LightningTracingProcessor({
      tracerProvider: {
        getTracer() {
          throw new Error('no tracer for you');
        },
      },
    });
    const span = makeSpan('p1', { type: 'agent', name: 'a' });
    await expect(processor.onTraceStart(makeTrace())).resolves.toBeUndefined();
    await expect(processor.onSpanStart(span)).resolves.toBeUndefined();
    await expect(processor.onSpanEnd(ended(span))).resolves.toBeUndefined();
    await expect(processor.shutdown()).resolves.toBeUndefined();
  });
});

describe('bookkeeping', () => {
  it('bounds the spans in flight: the oldest is ended unfinished and its late end ignored', async () => {
    const processor = new LightningTracingProcessor({
      tracer: harness.tracer,
      maxSpansInFlight: 2,
    });
    const spans = ['a', 'b', 'c'].map((id) => makeSpan(id, { type: 'custom', name: id, data: {} }));
    const { spans: stored } = await harness.rollout(async () => {
      for (const span of spans) await processor.onSpanStart(span);
      expect(processor.spansInFlight).toBe(2);
      for (const span of spans) await processor.onSpanEnd(ended(span));
    });
    expect(processor.spansInFlight).toBe(0);
    const customs = byName(stored, 'openai_agents.custom');
    expect(customs).toHaveLength(3);
    const first = customs.find((s) => s.attributes['openai_agents.custom.name'] === 'a')!;
    expect(first.attributes['openai_agents.unfinished']).toBe(true);
    const others = customs.filter((s) => s !== first);
    expect(others.every((s) => s.attributes['openai_agents.unfinished'] === undefined)).toBe(true);
  });

  it('records a span whose start it missed, once, and ignores a late or repeated start/end', async () => {
    const processor = new LightningTracingProcessor({ tracer: harness.tracer });
    const { spans } = await harness.rollout(async () => {
      const span = makeSpan('late', { type: 'agent', name: 'late-agent' });
      await processor.onSpanEnd(ended(span));
      await processor.onSpanStart(span);
      await processor.onSpanEnd(span);
    });
    expect(byName(spans, 'openai_agents.agent')).toHaveLength(1);
    expect(processor.spansInFlight).toBe(0);
  });

  it('ends what is open on shutdown, marked unfinished', async () => {
    const processor = new LightningTracingProcessor({ tracer: harness.tracer });
    const { spans } = await harness.rollout(async () => {
      await processor.onTraceStart(makeTrace('t-shut'));
      await processor.onSpanStart(
        makeSpan('open', { type: 'agent', name: 'a' }, { traceId: 't-shut' }),
      );
      await processor.shutdown();
    });
    expect(only(spans, 'openai_agents.agent').attributes['openai_agents.unfinished']).toBe(true);
    expect(only(spans, 'openai_agents.trace').attributes['openai_agents.unfinished']).toBe(true);
  });

  it('records nothing while disabled, and again once enabled', async () => {
    const processor = new LightningTracingProcessor({ tracer: harness.tracer });
    processor.disable();
    const off = await harness.rollout(async () => {
      const span = makeSpan('d1', { type: 'agent', name: 'a' });
      await processor.onSpanStart(span);
      await processor.onSpanEnd(ended(span));
    });
    expect(off.spans).toHaveLength(0);
    processor.enable();
    const on = await harness.rollout(async () => {
      const span = makeSpan('d2', { type: 'agent', name: 'a' });
      await processor.onSpanStart(span);
      await processor.onSpanEnd(ended(span));
    });
    expect(on.spans).toHaveLength(1);
  });
});

describe('attribution', () => {
  it('puts a span whose callbacks run outside any traceContext into the rollout its trace started in', async () => {
    const processor = new LightningTracingProcessor({ tracer: harness.tracer });
    const trace = makeTrace('t-outside');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const traceStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const rollout = harness.rollout(async () => {
      await processor.onTraceStart(trace);
      started();
      await gate;
    });
    await traceStarted;
    // Outside the traceContext: e.g. a span replayed with dispatchSpan, or a callback of a resumed run.
    const agent = makeSpan(
      'out-agent',
      { type: 'agent', name: 'outsider' },
      { traceId: 't-outside' },
    );
    const child = makeSpan(
      'out-child',
      { type: 'custom', name: 'c', data: {} },
      {
        traceId: 't-outside',
        parentId: 'out-agent',
      },
    );
    await processor.onSpanStart(agent);
    await processor.onSpanStart(child);
    await processor.onSpanEnd(ended(child));
    await processor.onSpanEnd(ended(agent));
    release();
    const { spans, rolloutId } = await rollout;
    await harness.tracer.flush();
    const all = harness.sink.spans(rolloutId);
    expect(spans.length).toBeGreaterThanOrEqual(2);
    const agentSpan = only(all, 'openai_agents.agent');
    expect(agentSpan.attributes['agent.name']).toBe('outsider');
    expect(only(all, 'openai_agents.custom').parent_id).toBe(agentSpan.span_id);
  });

  it('prefers the traceContext current at span start over the one the trace started in', async () => {
    const processor = new LightningTracingProcessor({ tracer: harness.tracer });
    const trace = makeTrace('t-batch');
    // A trace started outside any rollout (e.g. withTrace around several rollouts).
    await processor.onTraceStart(trace);
    const ids: string[] = [];
    for (const n of [1, 2]) {
      const { spans } = await harness.rollout(async () => {
        const span = makeSpan(
          `batch-${n}`,
          { type: 'agent', name: `agent-${n}` },
          { traceId: 't-batch' },
        );
        await processor.onSpanStart(span);
        await processor.onSpanEnd(ended(span));
      });
      ids.push(String(only(spans, 'openai_agents.agent').attributes['agent.name']));
    }
    await processor.onTraceEnd(trace);
    expect(ids).toEqual(['agent-1', 'agent-2']);
  });
});
