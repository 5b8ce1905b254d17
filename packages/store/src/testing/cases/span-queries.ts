import type { Span } from '@arclight/core';
import { expect } from 'vitest';
import { dequeue, heartbeat, hex, makeSpan } from '../helpers.js';
import type { CaseGroup } from '../target.js';

const spanIds = (page: { items: Span[] }): string[] => page.items.map((s) => s.span_id);

export const spanQueryCases: CaseGroup = {
  name: 'span queries',
  cases: [
    {
      id: 'span.query-attempt-scope',
      title:
        'querySpans: attempt_id absent = all attempts, "latest" = latest attempt, an id = that attempt',
      async run({ store }) {
        const rollout = await store.enqueueRollout({ input: 1 });
        const r = rollout.rollout_id;
        const first = await dequeue(store);
        for (let i = 0; i < 2; i++) await heartbeat(store, r, first.attempt.attempt_id);
        await store.updateRollout(r, { status: 'requeuing' });
        const second = await dequeue(store);
        for (let i = 0; i < 3; i++) await heartbeat(store, r, second.attempt.attempt_id);

        const all = await store.querySpans(r);
        expect(all.total).toBe(5);
        expect(all.items.map((s) => s.sequence_id)).toEqual([1, 2, 3, 4, 5]);
        expect((await store.querySpans(r, { attempt_id: null })).total).toBe(5);
        const firstSpans = await store.querySpans(r, { attempt_id: first.attempt.attempt_id });
        expect(firstSpans.items).toHaveLength(2);
        expect(firstSpans.items.every((s) => s.attempt_id === first.attempt.attempt_id)).toBe(true);
        const latest = await store.querySpans(r, { attempt_id: 'latest' });
        expect(latest.items).toHaveLength(3);
        expect(latest.items.every((s) => s.attempt_id === second.attempt.attempt_id)).toBe(true);
        expect((await store.querySpans(r, { attempt_id: 'at-nonexistent' })).total).toBe(0);
      },
    },
    {
      id: 'span.query-empty',
      title: 'querySpans of unknown rollouts, or "latest" without attempts, is empty',
      async run({ store }) {
        expect((await store.querySpans('ro-nonexistent')).items).toEqual([]);
        expect((await store.querySpans('ro-nonexistent', { attempt_id: 'at-1' })).total).toBe(0);
        expect((await store.querySpans('ro-nonexistent', { attempt_id: 'latest' })).total).toBe(0);
        const queued = await store.enqueueRollout({ input: 1 });
        const latest = await store.querySpans(queued.rollout_id, { attempt_id: 'latest' });
        expect(latest.items).toEqual([]);
        expect(latest.total).toBe(0);
      },
    },
    {
      id: 'span.query-filters',
      title:
        'querySpans filters by trace/span/parent id and name (exact and contains), with and/or logic',
      async run({ store }) {
        const { rollout_id: r, attempt } = await store.startRollout({ input: 1 });
        const build = (seq: number, name: string, parent: string | null, traceSeed = seq) =>
          makeSpan(
            { rollout_id: r, attempt_id: attempt.attempt_id, sequence_id: seq },
            { seed: seq, trace_id: hex(traceSeed * 10, 32), name, parent_id: parent },
          );
        const plan = build(1, 'phase-plan', null);
        const run = build(2, 'phase-run', plan.span_id);
        const tool = build(3, 'tool-call', run.span_id);
        for (const span of [plan, run, tool]) await store.addSpan(span);

        expect(spanIds(await store.querySpans(r, { trace_id: run.trace_id }))).toEqual([
          run.span_id,
        ]);
        expect(spanIds(await store.querySpans(r, { span_id: tool.span_id }))).toEqual([
          tool.span_id,
        ]);
        expect(spanIds(await store.querySpans(r, { name: 'phase-run' }))).toEqual([run.span_id]);
        expect(spanIds(await store.querySpans(r, { parent_id: plan.span_id }))).toEqual([
          run.span_id,
        ]);
        expect(
          spanIds(await store.querySpans(r, { parent_id_contains: run.span_id.slice(-4) })),
        ).toEqual([tool.span_id]);
        expect(spanIds(await store.querySpans(r, { name_contains: 'phase' }))).toEqual([
          plan.span_id,
          run.span_id,
        ]);
        expect(
          spanIds(
            await store.querySpans(r, { name_contains: 'plan', sort_by: 'sequence_id', limit: 1 }),
          ),
        ).toEqual([plan.span_id]);
        expect(
          spanIds(
            await store.querySpans(r, {
              span_id_contains: tool.span_id.slice(-4),
              name_contains: 'phase',
            }),
          ),
        ).toEqual([]);
        expect(
          spanIds(
            await store.querySpans(r, {
              trace_id_contains: tool.trace_id.slice(-4),
              span_id_contains: tool.span_id.slice(-4),
              parent_id: run.span_id,
              name_contains: 'tool',
            }),
          ),
        ).toEqual([tool.span_id]);

        const or = await store.querySpans(r, {
          span_id: plan.span_id,
          trace_id_contains: tool.trace_id.slice(-4),
          filter_logic: 'or',
        });
        expect(new Set(spanIds(or))).toEqual(new Set([plan.span_id, tool.span_id]));

        const orPaged = await store.querySpans(r, {
          name_contains: 'phase',
          parent_id_contains: run.span_id.slice(-4),
          span_id: tool.span_id,
          filter_logic: 'or',
          sort_by: 'sequence_id',
          sort_order: 'desc',
          limit: 1,
          offset: 1,
        });
        expect(spanIds(orPaged)).toEqual([run.span_id]);
        expect(orPaged.total).toBe(3);

        const sorted = [plan, run, tool]
          .map((s) => s.span_id)
          .sort()
          .reverse();
        const paged = await store.querySpans(r, {
          sort_by: 'span_id',
          sort_order: 'desc',
          limit: 1,
          offset: 1,
        });
        expect(spanIds(paged)).toEqual(sorted.slice(1, 2));
      },
    },
    {
      id: 'span.query-scope',
      title:
        'with filter_logic "or" querySpans still never leaves the rollout (and the given attempt)',
      async run({ store }) {
        const first = await store.startRollout({ input: 1 });
        const second = await store.startRollout({ input: 2 });
        const spanFirst = makeSpan(
          { rollout_id: first.rollout_id, attempt_id: first.attempt.attempt_id, sequence_id: 1 },
          { seed: 1, name: 'alpha' },
        );
        const spanSecond = makeSpan(
          { rollout_id: second.rollout_id, attempt_id: second.attempt.attempt_id, sequence_id: 2 },
          { seed: 2, name: 'beta' },
        );
        await store.addSpan(spanFirst);
        await store.addSpan(spanSecond);
        const results = await store.querySpans(first.rollout_id, {
          attempt_id: first.attempt.attempt_id,
          name_contains: 'alpha',
          trace_id: spanSecond.trace_id,
          filter_logic: 'or',
        });
        expect(spanIds(results)).toEqual([spanFirst.span_id]);

        const retry = await store.startAttempt(first.rollout_id);
        const spanRetry = makeSpan(
          { rollout_id: first.rollout_id, attempt_id: retry.attempt.attempt_id, sequence_id: 3 },
          { seed: 3, name: 'alpha-retry' },
        );
        await store.addSpan(spanRetry);
        const scoped = await store.querySpans(first.rollout_id, {
          attempt_id: first.attempt.attempt_id,
          name_contains: 'alpha',
          span_id: spanRetry.span_id,
          filter_logic: 'or',
        });
        expect(spanIds(scoped)).toEqual([spanFirst.span_id]);
      },
    },
    {
      id: 'span.query-sort-pagination',
      title: 'querySpans sorts by sequence_id by default and reports limit/offset/total',
      async run({ store }) {
        const { rollout_id: r, attempt } = await store.startRollout({ input: 1 });
        for (const seq of [3, 1, 2]) {
          await store.addSpan(
            makeSpan({ rollout_id: r, attempt_id: attempt.attempt_id, sequence_id: seq }),
          );
        }
        const all = await store.querySpans(r);
        expect(all.items.map((s) => s.sequence_id)).toEqual([1, 2, 3]);
        expect([all.limit, all.offset, all.total]).toEqual([-1, 0, 3]);
        const desc = await store.querySpans(r, { sort_order: 'desc' });
        expect(desc.items.map((s) => s.sequence_id)).toEqual([3, 2, 1]);
        const page = await store.querySpans(r, {
          attempt_id: attempt.attempt_id,
          sort_by: 'sequence_id',
          sort_order: 'asc',
          limit: 1,
          offset: 1,
        });
        expect(page.items.map((s) => s.sequence_id)).toEqual([2]);
        expect([page.limit, page.offset, page.total]).toEqual([1, 1, 3]);
        const beyond = await store.querySpans(r, { limit: 2, offset: 10 });
        expect(beyond.items).toEqual([]);
        expect(beyond.total).toBe(3);
      },
    },
  ],
};
