import { afterEach, describe, expect, it } from 'vitest';
import {
  emitMessage,
  emitReward,
  findFinalReward,
  getMessageValue,
  InMemorySpanSink,
  LightningTracer,
} from '../src/index.js';

const tracers: LightningTracer[] = [];
afterEach(async () => {
  await Promise.all(tracers.splice(0).map((t) => t.shutdown()));
});

describe('store-less tracing', () => {
  it('without a store, keeps spans in memory for getLastTrace', async () => {
    const tracer = new LightningTracer();
    tracers.push(tracer);
    expect(tracer.sink).toBeInstanceOf(InMemorySpanSink);
    const value = await tracer.traceContext(
      { rolloutId: 'ro-local', attemptId: 'at-local' },
      () => {
        emitMessage('hello');
        emitReward(0.3);
        return 5;
      },
    );
    expect(value).toBe(5);
    const spans = tracer.getLastTrace();
    expect(spans.map((s) => [s.rollout_id, s.attempt_id, s.sequence_id, s.name])).toEqual([
      ['ro-local', 'at-local', 1, 'agentlightning.message'],
      ['ro-local', 'at-local', 2, 'agentlightning.annotation'],
    ]);
    expect(getMessageValue(spans[0]!)).toBe('hello');
    expect(findFinalReward(spans)).toBe(0.3);
    expect(spans[0]!.resource.attributes['service.name']).toBe('arclight-agent');
  });

  it('an explicit InMemorySpanSink collects spans of every rollout', async () => {
    const sink = new InMemorySpanSink();
    const tracer = new LightningTracer({ sink, serviceName: 'my-agent' });
    tracers.push(tracer);
    await Promise.all(
      ['a', 'b'].map((id) =>
        tracer.traceContext({ rolloutId: `ro-${id}`, attemptId: 'at-1' }, async () => {
          await new Promise((r) => setTimeout(r, id === 'a' ? 5 : 1));
          emitReward(id === 'a' ? 1 : 0);
        }),
      ),
    );
    expect(sink.spans()).toHaveLength(2);
    expect(findFinalReward(sink.spans('ro-a'))).toBe(1);
    expect(findFinalReward(sink.spans('ro-b', 'at-1'))).toBe(0);
    expect(sink.spans('ro-a')[0]!.resource.attributes['service.name']).toBe('my-agent');
    sink.clear();
    expect(sink.spans()).toEqual([]);
  });
});
