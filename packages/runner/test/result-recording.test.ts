import {
  AGL_ANNOTATION,
  createSpan,
  findFinalReward,
  getRewardValue,
  type Span,
  type SpanCoreFields,
} from '@arclight/core';
import { emitMessage, emitObject } from '@arclight/otel';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { type Hook, type RolloutRawResult, Runner, rollout } from '../src/index.js';
import { FAST, MemoryLogger, newStore, newTracer } from './support/harness.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Runs one rollout of an agent returning `result()` and reports what was stored and seen by hooks. */
async function runReturning(
  result: (ids: { rolloutId: string; attemptId: string }) => RolloutRawResult,
) {
  const store = newStore();
  const tracer = newTracer(store);
  const logger = new MemoryLogger();
  let hookSpans: Span[] | null = null;
  const hook: Hook = {
    onRolloutEnd: ({ spans }) => {
      hookSpans = spans;
    },
  };
  const agent = rollout(async (_task, { rollout: r }) => {
    emitMessage('thinking');
    return result({ rolloutId: r.rollout_id, attemptId: r.attempt.attempt_id });
  });
  const runner = new Runner({ agent, store, tracer, logger, hooks: hook, maxRollouts: 1, ...FAST });
  closers.push(async () => {
    await runner.close();
    await tracer.shutdown();
    await store.close();
  });
  const { rollout_id } = await store.enqueueRollout({ input: 'task', mode: 'train' });
  expect(await runner.iter()).toBe(1);
  const stored = (await store.querySpans(rollout_id)).items;
  const finished = await store.getRolloutById(rollout_id);
  const attempt = await store.getLatestAttempt(rollout_id);
  return { stored, finished, attempt, hookSpans: hookSpans as Span[] | null, logger };
}

describe('recording what a rollout returns (upstream _post_process_rollout_result)', () => {
  it('nothing: the tracer spans are the result and no extra span is written', async () => {
    const r = await runReturning(() => undefined);
    expect(r.finished?.status).toBe('succeeded');
    expect(r.stored.map((s) => s.name)).toEqual(['agentlightning.message']);
    expect(r.hookSpans?.map((s) => s.span_id)).toEqual(r.stored.map((s) => s.span_id));
  });

  it('a number: a reward span encoded as emitReward(v, {propagate:false}) with the next sequence id', async () => {
    const r = await runReturning(() => 0.75);
    expect(r.finished?.status).toBe('succeeded');
    expect(r.stored).toHaveLength(2);
    const [message, reward] = [...r.stored].sort((a, b) => a.sequence_id - b.sequence_id);
    expect(message!.name).toBe('agentlightning.message');
    expect(reward!.name).toBe(AGL_ANNOTATION);
    expect(reward!.sequence_id).toBeGreaterThan(message!.sequence_id);
    expect(reward!.attributes).toEqual({
      'agentlightning.reward.0.name': 'primary',
      'agentlightning.reward.0.value': 0.75,
    });
    expect(findFinalReward(r.stored.sort((a, b) => a.sequence_id - b.sequence_id))).toBe(0.75);
    // Hooks see the trace plus the reward span.
    expect(r.hookSpans?.map((s) => s.name)).toEqual(['agentlightning.message', AGL_ANNOTATION]);
  });

  it('a boolean reward is converted to 1/0 with a warning', async () => {
    const r = await runReturning(() => true);
    const reward = r.stored.find((s) => s.name === AGL_ANNOTATION)!;
    expect(getRewardValue(reward)).toBe(1);
    expect(r.logger.lines.some((l) => l.startsWith('warn') && l.includes('boolean'))).toBe(true);
  });

  it('Arclight spans are added as they are', async () => {
    const r = await runReturning(({ rolloutId, attemptId }) => [
      createSpan({
        rollout_id: rolloutId,
        attempt_id: attemptId,
        sequence_id: 100,
        name: 'custom.one',
        attributes: { k: 1 },
      }),
      createSpan({
        rollout_id: rolloutId,
        attempt_id: attemptId,
        sequence_id: 101,
        name: 'custom.two',
        attributes: { k: 2 },
      }),
    ]);
    expect(r.finished?.status).toBe('succeeded');
    const custom = r.stored.filter((s) => s.name.startsWith('custom.'));
    expect(custom.map((s) => [s.name, s.sequence_id])).toEqual([
      ['custom.one', 100],
      ['custom.two', 101],
    ]);
    expect(r.hookSpans?.map((s) => s.name)).toEqual(['custom.one', 'custom.two']);
  });

  it('SpanCoreFields get fresh sequence ids of the attempt and are added in one batch', async () => {
    const cores: SpanCoreFields[] = [
      emitObject({ a: 1 }, {}, { propagate: false }),
      emitMessage('done', {}, { propagate: false }),
    ];
    const r = await runReturning(() => cores);
    expect(r.finished?.status).toBe('succeeded');
    const added = r.stored.filter(
      (s) =>
        s.name !== 'agentlightning.message' ||
        s.attributes['agentlightning.message.body'] === 'done',
    );
    expect(added.map((s) => s.name).sort()).toEqual([
      'agentlightning.message',
      'agentlightning.object',
    ]);
    const traced = r.stored.find(
      (s) => s.attributes['agentlightning.message.body'] === 'thinking',
    )!;
    for (const span of added) {
      expect(span.rollout_id).toBe(r.finished!.rollout_id);
      expect(span.attempt_id).toBe(r.attempt!.attempt_id);
      expect(span.sequence_id).toBeGreaterThan(traced.sequence_id);
    }
    expect(new Set(added.map((s) => s.sequence_id)).size).toBe(2);
  });

  it('OpenTelemetry ReadableSpans are added with addOtelSpan (and a duplicate warning for an OTel tracer)', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const r = await runReturning(() => {
      provider.getTracer('elsewhere').startSpan('external.work').end();
      return exporter.getFinishedSpans();
    });
    await provider.shutdown();
    expect(r.finished?.status).toBe('succeeded');
    const external = r.stored.filter((s) => s.name === 'external.work');
    expect(external).toHaveLength(1);
    expect(external[0]!.attempt_id).toBe(r.attempt!.attempt_id);
    expect(r.hookSpans?.map((s) => s.name)).toEqual(['external.work']);
    expect(r.logger.lines.some((l) => l.startsWith('warn') && l.includes('twice'))).toBe(true);
  });

  it('an empty list is accepted with a warning', async () => {
    const r = await runReturning(() => []);
    expect(r.finished?.status).toBe('succeeded');
    expect(r.hookSpans).toEqual([]);
    expect(r.logger.lines.some((l) => l.startsWith('warn') && l.includes('empty list'))).toBe(true);
  });

  it('a mixed list or another value fails the attempt with the reason recorded', async () => {
    const mixed = await runReturning(
      () => [emitMessage('x', {}, { propagate: false }), 'oops'] as unknown as RolloutRawResult,
    );
    expect(mixed.finished?.status).toBe('failed');
    expect(mixed.attempt?.status).toBe('failed');
    expect(mixed.attempt?.metadata?.error).toMatchObject({
      type: 'ValidationError',
      message: expect.stringContaining('all of one kind'),
    });

    const text = await runReturning(() => 'a string' as unknown as RolloutRawResult);
    expect(text.attempt?.status).toBe('failed');
    expect(text.attempt?.metadata?.error).toMatchObject({
      message: expect.stringContaining('got string'),
    });
  });
});
