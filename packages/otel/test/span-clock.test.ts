import { afterEach, describe, expect, it } from 'vitest';
import { emitReward, LightningTracer } from '../src/index.js';

const tracers: LightningTracer[] = [];
afterEach(async () => {
  await Promise.all(tracers.splice(0).map((t) => t.shutdown()));
});

describe('emitted span times', () => {
  it('a reward emitted right after a span ended never starts before that end', async () => {
    // The SDK stamps starts with Date.now() (whole ms) and ends with start + a sub-ms duration; without
    // care, a reward emitted within the same millisecond would appear to start before the LLM call ended,
    // and the adapter would not give it to that call.
    const tracer = new LightningTracer();
    tracers.push(tracer);
    await tracer.traceContext({ rolloutId: 'ro-clock', attemptId: 'at-clock' }, () => {
      for (let i = 0; i < 200; i++) {
        tracer.getTracer().startSpan('openai.chat.completion').end();
        emitReward(i);
      }
    });
    const spans = tracer.getLastTrace();
    expect(spans).toHaveLength(400);
    for (let i = 0; i < spans.length; i += 2) {
      const [call, reward] = [spans[i]!, spans[i + 1]!];
      expect(call.name).toBe('openai.chat.completion');
      expect(reward.start_time!).toBeGreaterThanOrEqual(call.end_time!);
    }
  });
});
