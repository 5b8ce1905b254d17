import { afterEach, describe, expect, it } from 'vitest';
import { emitReward, InMemorySpanDestination, LightningTracer } from '../src/index.js';

const tracers: LightningTracer[] = [];
afterEach(async () => {
  await Promise.all(tracers.splice(0).map((t) => t.shutdown()));
});

describe('InMemorySpanDestination bound', () => {
  it('keeps the newest maxSpans spans, drops the oldest with a warning, and counts them', async () => {
    const warnings: string[] = [];
    const destination = new InMemorySpanDestination({
      maxSpans: 5,
      logger: { warn: (m) => warnings.push(m) },
    });
    const tracer = new LightningTracer({ destination });
    tracers.push(tracer);
    for (let i = 0; i < 12; i++) {
      await tracer.traceContext({ rolloutId: `ro-${i}`, attemptId: 'at-1' }, () => {
        emitReward(i);
      });
    }
    await tracer.flush();
    expect(destination.spans().map((s) => s.rollout_id)).toEqual([
      'ro-7',
      'ro-8',
      'ro-9',
      'ro-10',
      'ro-11',
    ]);
    expect(destination.dropped).toBe(7);
    expect(warnings[0]).toMatch(
      /in-memory span destination is full \(maxSpans=5\): dropped the oldest/,
    );
    expect(warnings.length).toBeLessThan(7); // rate-limited
  });

  it('refuses a non-positive maxSpans', () => {
    expect(() => new InMemorySpanDestination({ maxSpans: 0 })).toThrow(
      'maxSpans must be a positive integer',
    );
  });
});
