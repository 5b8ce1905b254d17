import { findFinalReward, getMessageValue } from '@arclight/core';
import { afterEach, describe, expect, it } from 'vitest';
import { emitMessage, emitReward, InMemorySpanDestination, LightningTracer } from '../src/index.js';

const tracers: LightningTracer[] = [];
afterEach(async () => {
  await Promise.all(tracers.splice(0).map((t) => t.shutdown()));
});

describe('store-less tracing', () => {
  it('without a store, keeps spans in memory for getLastTrace', async () => {
    const tracer = new LightningTracer();
    tracers.push(tracer);
    expect(tracer.destination).toBeInstanceOf(InMemorySpanDestination);
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

  it('an explicit InMemorySpanDestination collects spans of every rollout', async () => {
    const destination = new InMemorySpanDestination();
    const tracer = new LightningTracer({ destination, serviceName: 'my-agent' });
    tracers.push(tracer);
    await Promise.all(
      ['a', 'b'].map((id) =>
        tracer.traceContext({ rolloutId: `ro-${id}`, attemptId: 'at-1' }, async () => {
          await new Promise((r) => setTimeout(r, id === 'a' ? 5 : 1));
          emitReward(id === 'a' ? 1 : 0);
        }),
      ),
    );
    expect(destination.spans()).toHaveLength(2);
    expect(findFinalReward(destination.spans('ro-a'))).toBe(1);
    expect(findFinalReward(destination.spans('ro-b', 'at-1'))).toBe(0);
    expect(destination.spans('ro-a')[0]!.resource.attributes['service.name']).toBe('my-agent');
    destination.clear();
    expect(destination.spans()).toEqual([]);
  });
});
