import { expect } from 'vitest';
import { dequeue, expectAttached, expectNoAttempt, ids } from '../helpers.js';
import type { CaseGroup } from '../target.js';

/** A substring of a rollout id unlikely to occur in any other random id. */
const tail = (rolloutId: string): string => rolloutId.slice(-8);

export const queryCases: CaseGroup = {
  name: 'rollout and attempt queries',
  cases: [
    {
      id: 'query.rollouts-status',
      title: 'queryRollouts filters by status_in (an empty list matches nothing)',
      async run({ store }) {
        const r1 = await store.enqueueRollout({ input: 1 });
        const r2 = await store.enqueueRollout({ input: 2 });
        const r3 = await store.enqueueRollout({ input: 3 });
        await dequeue(store);
        await store.updateRollout(r2.rollout_id, { status: 'failed' });
        expect((await store.queryRollouts()).total).toBe(3);
        expect(ids((await store.queryRollouts({ status_in: ['queuing'] })).items)).toEqual([
          r3.rollout_id,
        ]);
        expect(ids((await store.queryRollouts({ status_in: ['preparing'] })).items)).toEqual([
          r1.rollout_id,
        ]);
        expect(
          ids((await store.queryRollouts({ status_in: ['failed', 'succeeded'] })).items),
        ).toEqual([r2.rollout_id]);
        expect((await store.queryRollouts({ status_in: [] })).items).toEqual([]);
        expect((await store.queryRollouts({ status_in: null })).total).toBe(3);
      },
    },
    {
      id: 'query.rollouts-ids',
      title: 'queryRollouts filters by rollout_id_in, alone and combined with status_in',
      async run({ store }) {
        const [r1, r2, r3] = await store.enqueueManyRollouts([
          { input: 1 },
          { input: 2 },
          { input: 3 },
        ]);
        const byIds = await store.queryRollouts({
          rollout_id_in: [r1!.rollout_id, r3!.rollout_id],
        });
        expect(new Set(ids(byIds.items))).toEqual(new Set([r1!.rollout_id, r3!.rollout_id]));
        expect(ids((await store.queryRollouts({ rollout_id_in: [r2!.rollout_id] })).items)).toEqual(
          [r2!.rollout_id],
        );
        expect((await store.queryRollouts({ rollout_id_in: ['ro-nonexistent'] })).total).toBe(0);
        expect((await store.queryRollouts({ rollout_id_in: [] })).total).toBe(0);
        await store.updateRollout(r1!.rollout_id, { status: 'succeeded' });
        await store.updateRollout(r2!.rollout_id, { status: 'failed' });
        const combined = await store.queryRollouts({
          rollout_id_in: [r1!.rollout_id, r2!.rollout_id, r3!.rollout_id],
          status_in: ['succeeded', 'queuing'],
        });
        expect(new Set(ids(combined.items))).toEqual(new Set([r1!.rollout_id, r3!.rollout_id]));
      },
    },
    {
      id: 'query.rollouts-filter-logic',
      title: 'queryRollouts combines status_in, rollout_id_in and rollout_id_contains with and/or',
      async run({ store }) {
        const rs = await store.enqueueManyRollouts([0, 1, 2, 3].map((input) => ({ input })));
        const [a, b, c, d] = rs.map((r) => r.rollout_id) as [string, string, string, string];
        await store.updateRollout(a, { status: 'failed' });
        await store.updateRollout(d, { status: 'failed' });

        const contains = await store.queryRollouts({
          rollout_id_contains: tail(b),
          status_in: ['queuing'],
        });
        expect(ids(contains.items)).toEqual([b]);
        expect(
          (await store.queryRollouts({ status_in: ['failed'], rollout_id_contains: tail(b) }))
            .total,
        ).toBe(0);
        const or = await store.queryRollouts({
          status_in: ['failed'],
          rollout_id_contains: tail(b),
          filter_logic: 'or',
          sort_by: 'rollout_id',
        });
        expect(ids(or.items)).toEqual([a, b, d].sort());
        const orIn = await store.queryRollouts({
          status_in: ['succeeded'],
          rollout_id_in: [c],
          filter_logic: 'or',
        });
        expect(ids(orIn.items)).toEqual([c]);
        const paged = await store.queryRollouts({
          status_in: ['failed'],
          rollout_id_contains: tail(c),
          filter_logic: 'or',
          sort_by: 'rollout_id',
          sort_order: 'asc',
          limit: 2,
          offset: 1,
        });
        expect(ids(paged.items)).toEqual([a, c, d].sort().slice(1, 3));
        expect(paged.total).toBe(3);
      },
    },
    {
      id: 'query.rollouts-sort',
      title:
        'queryRollouts sorts (stable; null *_time last ascending, other nulls first) and keeps insertion order by default',
      async run({ store, clock }) {
        const a = await store.enqueueRollout({ input: 'a' });
        const b = await store.enqueueRollout({ input: 'b', mode: 'train' });
        const c = await store.enqueueRollout({ input: 'c' });
        const d = await store.enqueueRollout({ input: 'd', mode: 'val' });
        const [A, B, C, D] = [a, b, c, d].map((r) => r.rollout_id) as [
          string,
          string,
          string,
          string,
        ];
        expect(ids((await store.queryRollouts()).items)).toEqual([A, B, C, D]);
        expect(ids((await store.queryRollouts({ sort_by: 'mode' })).items)).toEqual([A, C, B, D]);
        expect(
          ids((await store.queryRollouts({ sort_by: 'mode', sort_order: 'desc' })).items),
        ).toEqual([D, B, A, C]);
        clock.advance(1);
        await store.updateRollout(B, { status: 'succeeded' });
        clock.advance(1);
        await store.updateRollout(D, { status: 'failed' });
        expect(ids((await store.queryRollouts({ sort_by: 'end_time' })).items)).toEqual([
          B,
          D,
          A,
          C,
        ]);
        expect(
          ids((await store.queryRollouts({ sort_by: 'end_time', sort_order: 'desc' })).items),
        ).toEqual([A, C, D, B]);
        const byId = ids(
          (await store.queryRollouts({ sort_by: 'rollout_id', sort_order: 'desc' })).items,
        );
        expect(byId).toEqual([A, B, C, D].sort().reverse());
      },
    },
    {
      id: 'query.rollouts-pagination',
      title: 'queryRollouts reports limit, offset and the unpaginated total',
      async run({ store }) {
        const rs = await store.enqueueManyRollouts([0, 1, 2].map((input) => ({ input })));
        const all = await store.queryRollouts();
        expect([all.limit, all.offset, all.total]).toEqual([-1, 0, 3]);
        const page = await store.queryRollouts({ sort_by: 'rollout_id', limit: 1, offset: 1 });
        expect([page.limit, page.offset, page.total]).toEqual([1, 1, 3]);
        expect(ids(page.items)).toEqual(ids(rs).sort().slice(1, 2));
        const desc = await store.queryRollouts({
          sort_by: 'rollout_id',
          sort_order: 'desc',
          limit: 2,
        });
        expect(ids(desc.items)).toEqual(ids(rs).sort().reverse().slice(0, 2));
        const beyond = await store.queryRollouts({ limit: 5, offset: 10 });
        expect(beyond.items).toEqual([]);
        expect(beyond.total).toBe(3);
      },
    },
    {
      id: 'query.rollouts-attempt-attached',
      title: 'queried and fetched rollouts carry their latest attempt when they have one',
      async run({ store }) {
        const started = await store.startRollout({ input: 'latest' });
        const latest = await store.startAttempt(started.rollout_id);
        const queued = await store.enqueueRollout({ input: 'queued' });
        const results = await store.queryRollouts({ rollout_id_in: [started.rollout_id] });
        expect(results.items).toHaveLength(1);
        expectAttached(results.items[0]!, latest.attempt.attempt_id);
        expect((results.items[0] as typeof latest).attempt.sequence_id).toBe(2);
        expectAttached(await store.getRolloutById(started.rollout_id), latest.attempt.attempt_id);
        expectNoAttempt(await store.getRolloutById(queued.rollout_id));
        const all = await store.queryRollouts();
        expectAttached(
          all.items.find((r) => r.rollout_id === started.rollout_id)!,
          latest.attempt.attempt_id,
        );
        expectNoAttempt(all.items.find((r) => r.rollout_id === queued.rollout_id)!);
      },
    },
    {
      id: 'query.attempts',
      title: 'queryAttempts sorts by sequence_id by default, paginates and reports totals',
      async run({ store }) {
        const started = await store.startRollout({ input: 1 });
        await store.startAttempt(started.rollout_id);
        await store.startAttempt(started.rollout_id);
        const r = started.rollout_id;
        const all = await store.queryAttempts(r);
        expect(all.items.map((a) => a.sequence_id)).toEqual([1, 2, 3]);
        expect([all.limit, all.offset, all.total]).toEqual([-1, 0, 3]);
        const desc = await store.queryAttempts(r, { sort_by: 'sequence_id', sort_order: 'desc' });
        expect(desc.items.map((a) => a.sequence_id)).toEqual([3, 2, 1]);
        const middle = await store.queryAttempts(r, {
          sort_by: 'sequence_id',
          sort_order: 'desc',
          limit: 1,
          offset: 1,
        });
        expect(middle.items.map((a) => a.sequence_id)).toEqual([2]);
        expect([middle.limit, middle.offset, middle.total]).toEqual([1, 1, 3]);
        expect((await store.queryAttempts(r, { limit: 1, offset: 10 })).items).toEqual([]);
        const other = await store.startRollout({ input: 2 });
        expect((await store.queryAttempts(other.rollout_id)).total).toBe(1);
      },
    },
    {
      id: 'query.get-unknown',
      title:
        'getRolloutById, getLatestAttempt, getResourcesById and getWorkerById return null for unknown ids',
      async run({ store }) {
        expect(await store.getRolloutById('ro-nonexistent')).toBeNull();
        expect(await store.getLatestAttempt('ro-nonexistent')).toBeNull();
        expect(await store.getResourcesById('rs-nonexistent')).toBeNull();
        expect(await store.getWorkerById('worker-nonexistent')).toBeNull();
        expect(await store.getLatestResources()).toBeNull();
      },
    },
  ],
};
