import { findFinalReward, type Span } from '@arclight/core';
import { InMemoryLightningStore } from '@arclight/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  emitMessage,
  emitReward,
  getActiveTracer,
  LightningTracer,
  operation,
  traceContext,
} from '../src/index.js';
import { newAttempt, sleep } from './support/stores.js';

const tracers: LightningTracer[] = [];
function track(tracer: LightningTracer): LightningTracer {
  tracers.push(tracer);
  return tracer;
}

afterEach(async () => {
  await Promise.all(tracers.splice(0).map((t) => t.shutdown()));
});

async function spansOf(store: InMemoryLightningStore, rolloutId: string): Promise<Span[]> {
  return (await store.querySpans(rolloutId)).items;
}

const byName = (spans: Span[], name: string) => spans.filter((s) => s.name === name);

describe('attribution', () => {
  it('keeps two interleaved rollouts apart across awaits and timers', async () => {
    const store = new InMemoryLightningStore();
    // A scheduled delay far beyond the test: only the context-end flush can write the spans.
    const tracer = track(new LightningTracer({ store, scheduledDelayMillis: 3_600_000 }));
    const a = await newAttempt(store, 'a');
    const b = await newAttempt(store, 'b');
    const otel = tracer.getTracer('agent');

    const agent = (label: string, delays: number[], reward: number) => async () => {
      for (const [i, delay] of delays.entries()) {
        await new Promise<void>((resolve) =>
          setTimeout(() => {
            otel.startSpan(`${label}.timer.${i}`).end();
            resolve();
          }, delay),
        );
        await sleep(delay);
        emitMessage(`${label} step ${i}`);
      }
      emitReward(reward);
      return label;
    };

    const [ra, rb] = await Promise.all([
      tracer.traceContext(a, agent('a', [15, 1, 10], 0.25)),
      tracer.traceContext(b, agent('b', [1, 12, 2], 0.75)),
    ]);
    expect([ra, rb]).toEqual(['a', 'b']);

    const spansA = await spansOf(store, a.rolloutId);
    const spansB = await spansOf(store, b.rolloutId);
    expect(spansA).toHaveLength(7);
    expect(spansB).toHaveLength(7);
    for (const [spans, ids, label] of [
      [spansA, a, 'a'],
      [spansB, b, 'b'],
    ] as const) {
      expect(spans.every((s) => s.attempt_id === ids.attemptId)).toBe(true);
      expect(
        byName(spans, 'agentlightning.message').map(
          (s) => s.attributes['agentlightning.message.body'],
        ),
      ).toEqual([`${label} step 0`, `${label} step 1`, `${label} step 2`]);
      expect(spans.filter((s) => s.name.startsWith(`${label}.timer.`))).toHaveLength(3);
      expect(spans.map((s) => s.sequence_id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    }
    expect(findFinalReward(spansA)).toBe(0.25);
    expect(findFinalReward(spansB)).toBe(0.75);
  });

  it('gives nested spans the parent ids of the spans they ran in', async () => {
    const store = new InMemoryLightningStore();
    const tracer = track(new LightningTracer({ store }));
    const ids = await newAttempt(store);
    const otel = tracer.getTracer();

    const work = operation(async function plan(goal: string) {
      await sleep(2);
      emitMessage(`planning ${goal}`);
      return `plan for ${goal}`;
    });
    await tracer.traceContext(ids, () =>
      otel.startActiveSpan('agent.run', async (root) => {
        await work('dinner');
        await sleep(1);
        otel.startSpan('agent.llm').end();
        root.end();
      }),
    );

    const spans = await spansOf(store, ids.rolloutId);
    const [root] = byName(spans, 'agent.run');
    const [op] = byName(spans, 'agentlightning.operation');
    const [message] = byName(spans, 'agentlightning.message');
    const [llm] = byName(spans, 'agent.llm');
    expect(root!.parent_id).toBeNull();
    expect(op!.parent_id).toBe(root!.span_id);
    expect(message!.parent_id).toBe(op!.span_id);
    expect(llm!.parent_id).toBe(root!.span_id);
    expect(new Set(spans.map((s) => s.trace_id)).size).toBe(1);
    expect(op!.attributes).toMatchObject({
      'agentlightning.operation.name': 'plan',
      'agentlightning.operation.input.args.0': 'dinner',
      'agentlightning.operation.output': 'plan for dinner',
    });
  });

  it('does not store spans started outside any traceContext', async () => {
    const store = new InMemoryLightningStore();
    const tracer = track(new LightningTracer({ store }));
    const ids = await newAttempt(store);
    const otel = tracer.getTracer();

    const outside = otel.startSpan('outside.before');
    let straddling: ReturnType<typeof otel.startSpan> | undefined;
    await tracer.traceContext(ids, async () => {
      straddling = otel.startSpan('inside.ends-later');
      otel.startSpan('inside').end();
      outside.end();
    });
    otel.startSpan('outside.after').end();
    emitMessage('emitted outside');
    straddling!.end();
    await tracer.flush();

    const names = (await spansOf(store, ids.rolloutId)).map((s) => s.name).sort();
    // A span belongs to the context it started in, even when it ends after the context.
    expect(names).toEqual(['inside', 'inside.ends-later']);
    expect(tracer.stats).toMatchObject({ exported: 2, dropped: 0 });
  });

  it('has written every span of the rollout when traceContext resolves', async () => {
    const store = new InMemoryLightningStore();
    const tracer = track(new LightningTracer({ store, scheduledDelayMillis: 3_600_000 }));
    const ids = await newAttempt(store);
    const result = await tracer.traceContext(ids, async () => {
      for (let i = 0; i < 5; i++) emitReward(i);
      return 'done';
    });
    expect(result).toBe('done');
    expect(await spansOf(store, ids.rolloutId)).toHaveLength(5);
    expect(tracer.stats).toMatchObject({ exported: 5, pending: 0 });
    const last = tracer.getLastTrace();
    expect(last.map((s) => s.sequence_id)).toEqual([1, 2, 3, 4, 5]);
    expect(last.every((s) => s.rollout_id === ids.rolloutId)).toBe(true);
  });

  it('rejects with the agent error, after its spans were written', async () => {
    const store = new InMemoryLightningStore();
    const tracer = track(new LightningTracer({ store, scheduledDelayMillis: 3_600_000 }));
    const ids = await newAttempt(store);
    await expect(
      tracer.traceContext(ids, async () => {
        emitMessage('about to fail');
        throw new Error('agent failed');
      }),
    ).rejects.toThrow('agent failed');
    expect(await spansOf(store, ids.rolloutId)).toHaveLength(1);
  });

  it('getLastTrace returns the spans of the most recently completed context', async () => {
    const store = new InMemoryLightningStore();
    const tracer = track(new LightningTracer({ store }));
    const first = await newAttempt(store);
    const second = await newAttempt(store);
    await tracer.traceContext(first, () => emitReward(1));
    expect(tracer.getLastTrace().map((s) => s.rollout_id)).toEqual([first.rolloutId]);
    await tracer.traceContext(second, () => {
      emitMessage('x');
      emitReward(0);
    });
    const last = tracer.getLastTrace();
    expect(last.map((s) => s.name)).toEqual([
      'agentlightning.message',
      'agentlightning.annotation',
    ]);
    expect(last.every((s) => s.rollout_id === second.rolloutId)).toBe(true);
    // The stored spans, with the store's sequence ids.
    expect(last).toEqual(await spansOf(store, second.rolloutId));
  });

  it('records but never exports the spans of a context without ids', async () => {
    const store = new InMemoryLightningStore();
    const tracer = track(new LightningTracer({ store }));
    await tracer.traceContext({}, () => emitMessage('debugging'));
    const [span] = tracer.getLastTrace();
    expect(span).toMatchObject({
      rollout_id: 'rollout-dummy',
      attempt_id: 'attempt-dummy',
      name: 'agentlightning.message',
    });
    await tracer.flush();
    expect(tracer.stats.exported).toBe(0);
  });

  it('requires both ids or neither', async () => {
    const tracer = track(new LightningTracer());
    await expect(tracer.traceContext({ rolloutId: 'ro-1' }, () => 1)).rejects.toThrow(
      /rolloutId and attemptId must be both given/,
    );
    await expect(tracer.traceContext({ rolloutId: '', attemptId: '' }, () => 1)).rejects.toThrow(
      /rolloutId must be a non-empty string/,
    );
  });

  it('module-level traceContext uses the active tracer', async () => {
    const store = new InMemoryLightningStore();
    const tracer = track(new LightningTracer({ store }));
    expect(getActiveTracer()).toBe(tracer);
    const second = track(new LightningTracer({ store }));
    expect(getActiveTracer()).toBe(tracer);
    const ids = await newAttempt(store);
    await traceContext(ids, () => emitReward(0.5));
    expect(findFinalReward(await spansOf(store, ids.rolloutId))).toBe(0.5);
    // Emitters use the tracer whose context they run in, not the active one.
    const other = await newAttempt(store);
    await second.traceContext(other, () => emitReward(0.1));
    expect(second.getLastTrace()).toHaveLength(1);
    expect(tracer.getLastTrace()[0]!.rollout_id).toBe(ids.rolloutId);
    await tracer.shutdown();
    expect(getActiveTracer()).toBeNull();
  });
});
