import { expect } from 'vitest';
import {
  dequeue,
  expectNotFound,
  getRollout,
  heartbeat,
  latestAttempt,
  makeSpan,
} from '../helpers.js';
import { createOtelSpanFactory } from '../otel.js';
import type { CaseGroup } from '../target.js';

export const spanCases: CaseGroup = {
  name: 'spans',
  cases: [
    {
      id: 'span.sequence-per-rollout',
      title: 'span sequence ids start at 1 per rollout and are shared by all its attempts',
      async run({ store }) {
        const otel = await createOtelSpanFactory();
        const rollout = await store.enqueueRollout({ input: 1 });
        const { attempt } = await dequeue(store);
        const r = rollout.rollout_id;
        expect(await store.getNextSpanSequenceId(r, attempt.attempt_id)).toBe(1);
        expect(
          (await store.addOtelSpan(r, attempt.attempt_id, otel.span('one')))?.sequence_id,
        ).toBe(2);
        expect(await store.getNextSpanSequenceId(r, attempt.attempt_id)).toBe(3);
        expect(
          (await store.addOtelSpan(r, attempt.attempt_id, otel.span('two')))?.sequence_id,
        ).toBe(4);
        // Allocation is keyed by rollout only and does not check the attempt.
        expect(await store.getNextSpanSequenceId(r, 'at-does-not-exist')).toBe(5);

        await store.updateRollout(r, { status: 'requeuing' });
        const retry = await dequeue(store);
        expect((await heartbeat(store, r, retry.attempt.attempt_id)).sequence_id).toBe(6);

        const other = await store.startRollout({ input: 2 });
        expect(await store.getNextSpanSequenceId(other.rollout_id, other.attempt.attempt_id)).toBe(
          1,
        );
      },
    },
    {
      id: 'span.explicit-sequence',
      title: 'explicit sequence ids are kept and push the counter up, never down',
      async run({ store }) {
        const otel = await createOtelSpanFactory();
        const { rollout_id: r, attempt } = await store.startRollout({ input: 1 });
        const a = attempt.attempt_id;
        expect((await store.addOtelSpan(r, a, otel.span('explicit'), 100))?.sequence_id).toBe(100);
        expect(await store.getNextSpanSequenceId(r, a)).toBe(101);
        const low = await store.addSpan(
          makeSpan({ rollout_id: r, attempt_id: a, sequence_id: 50 }),
        );
        expect(low?.sequence_id).toBe(50);
        expect(await store.getNextSpanSequenceId(r, a)).toBe(102);
        await store.addManySpans([
          makeSpan({ rollout_id: r, attempt_id: a, sequence_id: 200 }),
          makeSpan({ rollout_id: r, attempt_id: a, sequence_id: 150 }),
        ]);
        expect(await store.getNextSpanSequenceId(r, a)).toBe(201);
      },
    },
    {
      id: 'span.many-sequence-ids',
      title: 'getManySpanSequenceIds allocates in request order across rollouts and attempts',
      async run({ store }) {
        const first = await store.startRollout({ input: 1 });
        const second = await store.startRollout({ input: 2 });
        await store.updateRollout(first.rollout_id, { status: 'requeuing' });
        const retried = await store.startAttempt(first.rollout_id);
        const allocated = await store.getManySpanSequenceIds([
          [first.rollout_id, first.attempt.attempt_id],
          [second.rollout_id, second.attempt.attempt_id],
          [first.rollout_id, retried.attempt.attempt_id],
          [first.rollout_id, first.attempt.attempt_id],
        ]);
        expect(allocated).toEqual([1, 1, 2, 3]);
        expect(await store.getNextSpanSequenceId(first.rollout_id, first.attempt.attempt_id)).toBe(
          4,
        );
        expect(
          await store.getNextSpanSequenceId(second.rollout_id, second.attempt.attempt_id),
        ).toBe(2);
        expect(await store.getManySpanSequenceIds([])).toEqual([]);
      },
    },
    {
      id: 'span.unknown-ids',
      title: 'spans for an unknown rollout or attempt are rejected with an error naming it',
      async run(ctx) {
        const { store } = ctx;
        const otel = await createOtelSpanFactory();
        await expectNotFound(
          ctx,
          store.addSpan(makeSpan({ rollout_id: 'ro-missing', attempt_id: 'at-1', sequence_id: 1 })),
          'ro-missing',
        );
        await expectNotFound(
          ctx,
          store.addOtelSpan('ro-missing', 'at-1', otel.span('x')),
          'ro-missing',
        );
        const queued = await store.enqueueRollout({ input: 1 });
        await dequeue(store);
        await expectNotFound(
          ctx,
          store.addSpan(
            makeSpan({ rollout_id: queued.rollout_id, attempt_id: 'at-missing', sequence_id: 1 }),
          ),
          'at-missing',
        );
        await expectNotFound(
          ctx,
          store.addOtelSpan(queued.rollout_id, 'at-missing', otel.span('y')),
          'at-missing',
        );
        expect((await store.statistics()).total_spans).toBe(0);
        expect((await latestAttempt(store, queued.rollout_id)).status).toBe('preparing');
      },
    },
    {
      id: 'span.duplicate',
      title: 'a span with an existing (rollout, attempt, span_id) returns null and changes nothing',
      async run({ store }) {
        const otel = await createOtelSpanFactory();
        const started = await store.startRollout({ input: 1 });
        const key = { rollout_id: started.rollout_id, attempt_id: started.attempt.attempt_id };
        const span = makeSpan({ ...key, sequence_id: 1 }, { seed: 7, name: 'original' });
        expect(await store.addSpan(span)).toEqual(span);
        expect(await store.addSpan(span)).toBeNull();
        expect(await store.addSpan({ ...span, name: 'changed', sequence_id: 2 })).toBeNull();

        const otelSpan = otel.span('otel-dup');
        expect(await store.addOtelSpan(key.rollout_id, key.attempt_id, otelSpan)).not.toBeNull();
        expect(await store.addOtelSpan(key.rollout_id, key.attempt_id, otelSpan)).toBeNull();

        // The same span_id under another attempt is a different span.
        const retry = await store.startAttempt(started.rollout_id);
        const again = { ...span, attempt_id: retry.attempt.attempt_id };
        expect(await store.addSpan(again)).toEqual(again);

        const stored = await store.querySpans(started.rollout_id);
        expect(stored.total).toBe(3);
        expect(
          stored.items.find((s) => s.attempt_id === key.attempt_id && s.span_id === span.span_id)
            ?.name,
        ).toBe('original');
      },
    },
    {
      id: 'span.add-many',
      title:
        'addManySpans stores spans of several rollouts/attempts and returns only the stored ones',
      async run({ store }) {
        const first = await store.startRollout({ input: 1 });
        const second = await store.startRollout({ input: 2 });
        await store.updateRollout(first.rollout_id, { status: 'requeuing' });
        const retried = await store.startAttempt(first.rollout_id);
        const spanFirst = makeSpan(
          { rollout_id: first.rollout_id, attempt_id: first.attempt.attempt_id, sequence_id: 1 },
          { seed: 1 },
        );
        const spanRetry = makeSpan(
          { rollout_id: first.rollout_id, attempt_id: retried.attempt.attempt_id, sequence_id: 2 },
          { seed: 2 },
        );
        const spanSecond = makeSpan(
          { rollout_id: second.rollout_id, attempt_id: second.attempt.attempt_id, sequence_id: 3 },
          { seed: 3 },
        );
        const stored = await store.addManySpans([
          spanFirst,
          spanRetry,
          spanSecond,
          { ...spanFirst },
        ]);
        expect(stored.map((s) => s.span_id).sort()).toEqual(
          [spanFirst.span_id, spanRetry.span_id, spanSecond.span_id].sort(),
        );
        const fresh = makeSpan({ ...spanSecond, sequence_id: 4 }, { seed: 4 });
        expect(await store.addManySpans([spanSecond, fresh])).toEqual([fresh]);
        expect(await store.addManySpans([])).toEqual([]);

        const firstSpans = (await store.querySpans(first.rollout_id)).items.map((s) => s.span_id);
        expect(firstSpans.sort()).toEqual([spanFirst.span_id, spanRetry.span_id].sort());
        const secondSpans = (await store.querySpans(second.rollout_id)).items.map((s) => s.span_id);
        expect(secondSpans).toEqual([spanSecond.span_id, fresh.span_id]);
        // Every span is a heartbeat of its attempt.
        expect((await latestAttempt(store, first.rollout_id)).status).toBe('running');
        expect((await latestAttempt(store, second.rollout_id)).status).toBe('running');
        expect((await getRollout(store, second.rollout_id)).status).toBe('running');
      },
    },
    {
      id: 'span.add-many-atomic',
      title: 'addManySpans with one span of an unknown attempt fails and stores nothing',
      async run(ctx) {
        const { store } = ctx;
        const started = await store.startRollout({ input: 1 });
        const r = started.rollout_id;
        const valid = makeSpan({
          rollout_id: r,
          attempt_id: started.attempt.attempt_id,
          sequence_id: 5,
        });
        const invalid = makeSpan({ rollout_id: r, attempt_id: 'at-missing', sequence_id: 50 });
        await expectNotFound(ctx, store.addManySpans([valid, invalid]), 'at-missing');
        expect((await store.querySpans(r)).total).toBe(0);
        const attempt = await latestAttempt(store, r);
        expect(attempt.status).toBe('preparing');
        expect(attempt.last_heartbeat_time).toBeNull();
        expect((await getRollout(store, r)).status).toBe('preparing');
        expect(await store.getNextSpanSequenceId(r, started.attempt.attempt_id)).toBe(1);
      },
    },
    {
      id: 'span.otel-conversion',
      title: 'addOtelSpan converts a real OpenTelemetry SDK span and allocates its sequence id',
      async run({ store }) {
        const otel = await createOtelSpanFactory();
        const { rollout_id: r, attempt } = await store.startRollout({ input: 1 });
        const a = attempt.attempt_id;
        const parent = otel.span('parent-op', {
          attributes: { key: 'v', count: 3, flag: true, list: ['a', 'b'] },
          event: 'checkpoint',
        });
        const child = otel.span('child-op', { parent, error: 'boom' });
        const parentCtx = parent.spanContext();

        const p = await store.addOtelSpan(r, a, parent);
        expect(p).toMatchObject({
          rollout_id: r,
          attempt_id: a,
          sequence_id: 1,
          name: 'parent-op',
          trace_id: parentCtx.traceId,
          span_id: parentCtx.spanId,
          parent_id: null,
          status: { status_code: 'UNSET' },
          attributes: { key: 'v', count: 3, flag: true, list: ['a', 'b'] },
          context: { trace_id: parentCtx.traceId, span_id: parentCtx.spanId, is_remote: false },
          parent: null,
        });
        expect(p!.events).toHaveLength(1);
        expect(p!.events[0]).toMatchObject({ name: 'checkpoint', attributes: { detail: 'value' } });
        const nowSeconds = Date.now() / 1000;
        expect(Math.abs(p!.start_time! - nowSeconds)).toBeLessThan(3600);
        expect(p!.end_time!).toBeGreaterThanOrEqual(p!.start_time!);
        expect(Math.abs(p!.events[0]!.timestamp! - nowSeconds)).toBeLessThan(3600);

        const c = await store.addOtelSpan(r, a, child);
        expect(c).toMatchObject({
          sequence_id: 2,
          name: 'child-op',
          trace_id: parentCtx.traceId,
          parent_id: parentCtx.spanId,
          status: { status_code: 'ERROR', description: 'boom' },
        });
        expect(c!.span_id).toBe(child.spanContext().spanId);
        expect(c!.parent?.span_id).toBe(parentCtx.spanId);

        expect((await store.querySpans(r)).items).toEqual([p, c]);
        expect((await latestAttempt(store, r)).status).toBe('running');
      },
    },
    {
      id: 'span.roundtrip',
      title: 'a span with every field set (and unknown extra keys) round-trips through querySpans',
      async run({ store }) {
        const { rollout_id: r, attempt } = await store.startRollout({ input: 1 });
        const context = {
          trace_id: 'a'.repeat(32),
          span_id: 'b'.repeat(16),
          is_remote: false,
          trace_state: { k: 'v' },
        };
        const parent = {
          trace_id: 'a'.repeat(32),
          span_id: 'c'.repeat(16),
          is_remote: true,
          trace_state: {},
        };
        const span = makeSpan(
          { rollout_id: r, attempt_id: attempt.attempt_id, sequence_id: 3 },
          {
            trace_id: context.trace_id,
            span_id: context.span_id,
            parent_id: parent.span_id,
            name: 'openai.chat.completion',
            status: { status_code: 'ERROR', description: 'bad', extra_status: 1 },
            attributes: {
              'gen_ai.prompt.0.content': 'hi ✓',
              tokens: [1, 2, 3],
              ratio: 0.25,
              ok: false,
            },
            events: [{ name: 'e', attributes: { x: 'y' }, timestamp: 1700000000.5 }],
            links: [{ context: parent, attributes: null }],
            start_time: 1700000000.25,
            end_time: 1700000001.75,
            context,
            parent,
            resource: { attributes: { 'service.name': 'svc' }, schema_url: 'https://schema' },
            custom_extra: { nested: [1, 'two'] },
          },
        );
        expect(await store.addSpan(span)).toEqual(span);
        expect((await store.querySpans(r)).items).toEqual([span]);
      },
    },
  ],
};
