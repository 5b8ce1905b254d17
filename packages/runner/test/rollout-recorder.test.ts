import { findFinalReward, type Span } from '@arclight/core';
import type { LightningTracer } from '@arclight/otel';
import { InMemoryLightningStore } from '@arclight/store';
import { trace } from '@opentelemetry/api';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RolloutRecorder, Runner, rollout } from '../src/index.js';
import { attemptsOf, FAST, MemoryLogger, newStore, newTracer } from './support/harness.js';

const tracers: LightningTracer[] = [];
afterEach(async () => {
  await Promise.all(tracers.splice(0).map((t) => t.shutdown()));
});
afterAll(() => {
  trace.disable();
});

function recorderOn(store: InMemoryLightningStore, logger = new MemoryLogger()) {
  const tracer = newTracer(store);
  tracers.push(tracer);
  return { recorder: new RolloutRecorder({ store, tracer, logger }), tracer, logger };
}

async function spansOf(store: InMemoryLightningStore, rolloutId: string): Promise<Span[]> {
  return (await store.querySpans(rolloutId)).items;
}

describe('RolloutRecorder', () => {
  it('turns one run into a succeeded rollout whose last span is the returned reward', async () => {
    const store = newStore();
    const { recorder, tracer } = recorderOn(store);
    let seen: { rolloutId: string; attemptId: string; joined: boolean } | undefined;
    const value = await recorder.record({ question: '2+2?' }, async (ctx) => {
      seen = ctx;
      tracer.getTracer('agent').startActiveSpan('llm.call', (span) => span.end());
      await new Promise((r) => setTimeout(r, 5));
      tracer.getTracer('agent').startSpan('tool.call').end();
      return 0.75;
    });
    expect(value).toBe(0.75);
    expect(seen?.joined).toBe(false);

    const [stored] = (await store.queryRollouts()).items;
    expect(stored?.rollout_id).toBe(seen?.rolloutId);
    expect(stored?.input).toEqual({ question: '2+2?' });
    expect(stored?.mode).toBe('train');
    expect(stored?.status).toBe('succeeded');
    const attempts = await attemptsOf(store, stored!.rollout_id);
    expect(attempts.map((a) => [a.attempt_id, a.status])).toEqual([[seen?.attemptId, 'succeeded']]);

    // Written before record() resolved: no flush needed.
    const spans = await spansOf(store, stored!.rollout_id);
    expect(spans.map((s) => s.name)).toEqual([
      'llm.call',
      'tool.call',
      'agentlightning.annotation',
    ]);
    expect(findFinalReward(spans)).toBe(0.75);
  });

  it('takes the reward from an object result and returns the object', async () => {
    const store = newStore();
    const { recorder } = recorderOn(store);
    const result = await recorder.record('task', () => ({ answer: '4', reward: 1 }), {
      mode: 'val',
      metadata: { source: 'test' },
    });
    expect(result).toEqual({ answer: '4', reward: 1 });
    const [stored] = (await store.queryRollouts()).items;
    expect(stored?.mode).toBe('val');
    expect(stored?.metadata).toEqual({ source: 'test' });
    expect(findFinalReward(await spansOf(store, stored!.rollout_id))).toBe(1);
  });

  it('emits no reward for a result without one', async () => {
    const store = newStore();
    const { recorder } = recorderOn(store);
    expect(await recorder.record('task', () => 'just text')).toBe('just text');
    const [stored] = (await store.queryRollouts()).items;
    expect(stored?.status).toBe('succeeded');
    expect(await spansOf(store, stored!.rollout_id)).toEqual([]);
  });

  it('marks the attempt failed with the error and rethrows it', async () => {
    const store = newStore();
    const { recorder, tracer } = recorderOn(store);
    const boom = new TypeError('the agent broke');
    await expect(
      recorder.record('task', () => {
        tracer.getTracer('agent').startSpan('before.failure').end();
        throw boom;
      }),
    ).rejects.toBe(boom);
    const [stored] = (await store.queryRollouts()).items;
    expect(stored?.status).toBe('failed');
    const [attempt] = await attemptsOf(store, stored!.rollout_id);
    expect(attempt?.status).toBe('failed');
    expect(attempt?.metadata?.error).toMatchObject({
      type: 'TypeError',
      message: 'the agent broke',
    });
    expect((await spansOf(store, stored!.rollout_id)).map((s) => s.name)).toEqual([
      'before.failure',
    ]);
  });

  it("joins the runner's rollout when the agent runs under a Runner", async () => {
    const store = newStore();
    const runnerTracer = newTracer(store);
    tracers.push(runnerTracer);
    const { recorder } = recorderOn(store);
    let joined: boolean | undefined;
    const agent = rollout<{ n: number }>(async (task) => {
      await recorder.record(task, (ctx) => {
        joined = ctx.joined;
        return task.n / 10;
      });
    });
    const runner = new Runner({ agent, store, tracer: runnerTracer, logger: null, ...FAST });
    const finished = await runner.step({ n: 3 });
    expect(joined).toBe(true);
    expect((await store.queryRollouts()).items).toHaveLength(1); // no second rollout
    expect(finished.status).toBe('succeeded');
    expect(findFinalReward(await spansOf(store, finished.rollout_id))).toBe(0.3);
    await runner.close();
  });

  it('runs the agent unrecorded, and says so, when the store cannot start a rollout', async () => {
    const store = newStore();
    const logger = new MemoryLogger();
    const { recorder } = recorderOn(store, logger);
    await store.close();
    let ran = false;
    const value = await recorder.record('task', () => {
      ran = true;
      return 1;
    });
    expect(ran).toBe(true);
    expect(value).toBe(1);
    expect(logger.lines.join('\n')).toContain('could not start a rollout');
  });

  it('rejects a missing store or function, and records nothing after close()', async () => {
    expect(() => new RolloutRecorder({} as never)).toThrow(/store/);
    const store = newStore();
    const { recorder } = recorderOn(store);
    await expect(recorder.record('task', 'not a function' as never)).rejects.toThrow(
      /expected a function/,
    );
    await recorder.close();
    await expect(recorder.record('task', () => 1)).rejects.toThrow(/closed/);
  });

  it('by default registers its provider globally, so instrumentations on the global API are recorded', async () => {
    const store = new InMemoryLightningStore();
    const recorder = new RolloutRecorder({ store, logger: null });
    await recorder.record('task', () => {
      trace.getTracer('some-instrumentation').startSpan('global.span').end();
      return 1;
    });
    const [stored] = (await store.queryRollouts()).items;
    expect((await spansOf(store, stored!.rollout_id)).map((s) => s.name)).toEqual([
      'global.span',
      'agentlightning.annotation',
    ]);
    // A second recorder joins the provider registered by the first.
    const second = new RolloutRecorder({ store, logger: null });
    expect(second.tracerProvider).toBe(recorder.tracerProvider);
    await second.close();
    await recorder.close();
  });
});
