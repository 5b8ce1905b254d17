import * as agents from '@openai/agents';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { instrumentOpenAIAgents } from '../src/index.js';
import { only, TracerHarness } from './harness.js';

const harness = new TracerHarness();
afterEach(() => agents.setTraceProcessors([]));
afterAll(() => harness.shutdown());

class RecordingProcessor {
  readonly started: string[] = [];
  shutdowns = 0;
  async onTraceStart() {}
  async onTraceEnd() {}
  async onSpanStart(span: { spanData: { type: string } }) {
    this.started.push(span.spanData.type);
  }
  async onSpanEnd() {}
  async shutdown() {
    this.shutdowns += 1;
  }
  async forceFlush() {}
}

/** A workflow with one custom span, through the real SDK. */
function workflow(name: string) {
  return agents.withTrace(name, () =>
    agents.withCustomSpan(async () => 'done', { data: { name: 'step', data: { n: 1 } } }),
  );
}

describe('instrumentOpenAIAgents', () => {
  it('adds the processor next to the existing ones by default', async () => {
    const other = new RecordingProcessor();
    agents.setTraceProcessors([other]);
    const { processor } = instrumentOpenAIAgents(agents, { tracer: harness.tracer });
    const { spans } = await harness.rollout(() => workflow('additive'));
    expect(other.started).toEqual(['custom']);
    expect(other.shutdowns).toBe(0);
    expect(only(spans, 'openai_agents.trace').attributes['openai_agents.trace.name']).toBe(
      'additive',
    );
    expect(only(spans, 'openai_agents.custom').attributes['openai_agents.custom.data']).toBe(
      '{"n":1}',
    );
    expect(processor.isEnabled).toBe(true);
  });

  it('replaces them with exclusive: true', async () => {
    const other = new RecordingProcessor();
    agents.setTraceProcessors([other]);
    instrumentOpenAIAgents(agents, { tracer: harness.tracer, exclusive: true });
    const { spans } = await harness.rollout(() => workflow('exclusive'));
    expect(other.started).toEqual([]);
    expect(other.shutdowns).toBe(1);
    expect(only(spans, 'openai_agents.custom').parent_id).toBe(
      only(spans, 'openai_agents.trace').span_id,
    );
  });

  it('uninstrument() stops recording', async () => {
    const { uninstrument } = instrumentOpenAIAgents(agents, { tracer: harness.tracer });
    uninstrument();
    const { spans } = await harness.rollout(() => workflow('off'));
    expect(spans).toHaveLength(0);
  });

  it('uses the active LightningTracer when none is given', async () => {
    const { setActiveTracer, clearActiveTracer } = await import('@arclight/otel');
    setActiveTracer(harness.tracer);
    try {
      instrumentOpenAIAgents(agents);
      const { spans } = await harness.rollout(() => workflow('active'));
      expect(only(spans, 'openai_agents.trace').attributes['openai_agents.trace.name']).toBe(
        'active',
      );
    } finally {
      clearActiveTracer(harness.tracer);
    }
  });
});
