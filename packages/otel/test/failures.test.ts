import { InMemoryLightningStore } from '@arclight/store';
import { afterEach, describe, expect, it } from 'vitest';
import { emitMessage, emitReward, LightningTracer } from '../src/index.js';
import { FailingStore, HangingStore, newAttempt, recordingLogger } from './support/stores.js';

const tracers: LightningTracer[] = [];
function track(tracer: LightningTracer): LightningTracer {
  tracers.push(tracer);
  return tracer;
}

afterEach(async () => {
  await Promise.all(tracers.splice(0).map((t) => t.shutdown()));
});

const fastRetries = {
  retryDelayMillis: 1,
  maxRetryDelayMillis: 2,
  scheduledDelayMillis: 3_600_000,
};

describe('a store that is down or slow', () => {
  it('a failing store: the agent gets its value, spans are dropped and counted after bounded retries', async () => {
    const store = new FailingStore();
    const logger = recordingLogger();
    const tracer = track(new LightningTracer({ store, logger, maxRetries: 2, ...fastRetries }));
    const ids = await newAttempt(store);

    const value = await tracer.traceContext(ids, async () => {
      emitMessage('one');
      emitReward(1);
      return { answer: 42 };
    });

    expect(value).toEqual({ answer: 42 });
    expect(store.writeAttempts).toBe(3); // the first attempt and 2 retries
    expect(tracer.stats).toEqual({
      exported: 0,
      dropped: 2,
      failedExports: 1,
      retries: 2,
      pending: 0,
    });
    expect(logger.messages).toHaveLength(1);
    expect(logger.messages[0]).toMatch(
      new RegExp(
        `dropped 2 span\\(s\\) of rollout\\(s\\) ${ids.rolloutId}: .*failed 3 time\\(s\\).*store is down`,
      ),
    );
    expect((await store.querySpans(ids.rolloutId)).items).toEqual([]);
    // getLastTrace still has the spans (converted locally).
    expect(tracer.getLastTrace().map((s) => s.name)).toEqual([
      'agentlightning.message',
      'agentlightning.annotation',
    ]);
  });

  it('a store that recovers within the retries gets every span', async () => {
    const store = new FailingStore(2);
    const tracer = track(
      new LightningTracer({ store, maxRetries: 3, logger: null, ...fastRetries }),
    );
    const ids = await newAttempt(store);
    await tracer.traceContext(ids, () => emitReward(0.5));
    expect(tracer.stats).toMatchObject({ exported: 1, dropped: 0, retries: 2, failedExports: 0 });
    expect((await store.querySpans(ids.rolloutId)).items).toHaveLength(1);
  });

  it('a hanging store: each attempt is abandoned after exportTimeoutMillis, then the spans are dropped', async () => {
    const store = new HangingStore();
    const tracer = track(
      new LightningTracer({
        store,
        logger: null,
        exportTimeoutMillis: 5,
        maxRetries: 1,
        ...fastRetries,
      }),
    );
    const ids = await newAttempt(store);
    const value = await tracer.traceContext(ids, () => {
      emitReward(1);
      return 'finished';
    });
    expect(value).toBe('finished');
    expect(store.writeAttempts).toBe(2);
    expect(tracer.stats).toMatchObject({ exported: 0, dropped: 1, failedExports: 1, pending: 0 });
  });

  it('the context-end wait is bounded by contextFlushTimeoutMillis', async () => {
    const store = new HangingStore();
    const logger = recordingLogger();
    const tracer = track(
      new LightningTracer({
        store,
        logger,
        exportTimeoutMillis: 3_600_000,
        contextFlushTimeoutMillis: 5,
        shutdownTimeoutMillis: 5,
      }),
    );
    const ids = await newAttempt(store);
    const value = await tracer.traceContext(ids, () => {
      emitReward(1);
      return 7;
    });
    expect(value).toBe(7);
    expect(tracer.stats.pending).toBe(1);
    expect(logger.messages.join('\n')).toMatch(
      /still being written after contextFlushTimeoutMillis=5/,
    );
    // Shutdown gives up on the write still in flight and counts its spans as dropped.
    await tracer.shutdown();
    expect(tracer.stats).toMatchObject({ dropped: 1, exported: 0, pending: 0 });
    // After shutdown, contexts still run; their spans are not exported.
    await expect(tracer.traceContext(ids, () => emitReward(2) && 3)).resolves.toBe(3);
    expect(tracer.stats).toMatchObject({ dropped: 1, exported: 0, pending: 0 });
  });

  it('refuses spans beyond maxQueueSize and counts them', async () => {
    const store = new InMemoryLightningStore();
    const logger = recordingLogger();
    const tracer = track(
      new LightningTracer({ store, logger, maxQueueSize: 3, scheduledDelayMillis: 3_600_000 }),
    );
    const ids = await newAttempt(store);
    await tracer.traceContext(ids, () => {
      for (let i = 0; i < 5; i++) emitReward(i);
    });
    expect(tracer.stats).toMatchObject({ exported: 3, dropped: 2 });
    expect(logger.messages[0]).toMatch(/delivery queue is full \(maxQueueSize=3\)/);
    expect((await store.querySpans(ids.rolloutId)).items).toHaveLength(3);
  });

  it('exports full batches of maxExportBatchSize', async () => {
    const store = new InMemoryLightningStore();
    let calls = 0;
    const original = store.addManySpans.bind(store);
    store.addManySpans = (spans) => {
      calls += 1;
      expect(spans.length).toBeLessThanOrEqual(2);
      return original(spans);
    };
    const tracer = track(new LightningTracer({ store, maxExportBatchSize: 2 }));
    const ids = await newAttempt(store);
    await tracer.traceContext(ids, () => {
      for (let i = 0; i < 5; i++) emitReward(i);
    });
    expect(calls).toBe(3);
    expect(tracer.stats.exported).toBe(5);
  });

  it('does not retry what the store refuses (unknown attempt), and keeps other rollouts', async () => {
    const store = new InMemoryLightningStore();
    const logger = recordingLogger();
    const tracer = track(
      new LightningTracer({
        store,
        logger,
        maxRetries: 5,
        ...fastRetries,
        scheduledDelayMillis: 3_600_000,
      }),
    );
    const good = await newAttempt(store);
    const bad = { rolloutId: good.rolloutId, attemptId: 'at-unknown' };
    await Promise.all([
      tracer.traceContext(bad, () => emitReward(0)),
      tracer.traceContext(good, () => emitReward(1)),
    ]);
    await tracer.flush();
    expect(tracer.stats).toMatchObject({ exported: 1, dropped: 1, retries: 0, failedExports: 1 });
    expect(logger.messages.join('\n')).toMatch(/refused them/);
    expect((await store.querySpans(good.rolloutId)).items).toHaveLength(1);
  });

  it('rejects invalid queue settings', () => {
    expect(() => new LightningTracer({ maxRetries: -1, activate: false })).toThrow(
      /maxRetries must be a non-negative number/,
    );
    expect(() => new LightningTracer({ maxExportBatchSize: 0, activate: false })).toThrow(
      /maxExportBatchSize must be at least 1/,
    );
  });
});
