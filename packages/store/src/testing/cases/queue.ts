import { expect } from 'vitest';
import { attemptsOf, dequeue, getRollout, ids } from '../helpers.js';
import type { CaseGroup } from '../target.js';

export const queueCases: CaseGroup = {
  name: 'queue',
  cases: [
    {
      id: 'queue.fifo',
      title:
        'dequeueRollout returns queued rollouts first-in first-out, each with a fresh preparing attempt',
      async run({ store }) {
        const queued = [];
        for (let i = 0; i < 5; i++)
          queued.push(await store.enqueueRollout({ input: { order: i } }));
        for (let i = 0; i < 5; i++) {
          const got = await dequeue(store);
          expect(got.rollout_id).toBe(queued[i]!.rollout_id);
          expect(got.input).toEqual({ order: i });
          expect(got.status).toBe('preparing');
          expect(got.attempt.sequence_id).toBe(1);
          expect(got.attempt.status).toBe('preparing');
          expect(got.attempt.rollout_id).toBe(got.rollout_id);
          expect((await getRollout(store, got.rollout_id)).status).toBe('preparing');
        }
        expect(await store.dequeueRollout()).toBeNull();
      },
    },
    {
      id: 'queue.empty',
      title: 'dequeueing an empty queue returns null (and [] for dequeueManyRollouts), repeatedly',
      async run({ store }) {
        for (let i = 0; i < 3; i++) expect(await store.dequeueRollout()).toBeNull();
        expect(await store.dequeueManyRollouts({ limit: 3 })).toEqual([]);
      },
    },
    {
      id: 'queue.skips-non-queuing',
      title:
        'dequeue skips ids whose rollout left the queuing state (finished, cancelled or started while queued)',
      async run({ store }) {
        const r1 = await store.enqueueRollout({ input: { id: 1 } });
        const r2 = await store.enqueueRollout({ input: { id: 2 } });
        const r3 = await store.enqueueRollout({ input: { id: 3 } });
        const r4 = await store.enqueueRollout({ input: { id: 4 } });
        const r5 = await store.enqueueRollout({ input: { id: 5 } });
        await store.updateRollout(r1.rollout_id, { status: 'succeeded' });
        await store.updateRollout(r2.rollout_id, { status: 'cancelled' });
        await store.startAttempt(r3.rollout_id);
        await store.updateRollout(r4.rollout_id, { status: 'running' });

        const got = await dequeue(store);
        expect(got.rollout_id).toBe(r5.rollout_id);
        expect(got.status).toBe('preparing');
        expect(got.input).toEqual({ id: 5 });
        expect(await store.dequeueRollout()).toBeNull();

        const statuses = Object.fromEntries(
          (await store.queryRollouts()).items.map((r) => [r.rollout_id, r.status]),
        );
        expect(statuses).toEqual({
          [r1.rollout_id]: 'succeeded',
          [r2.rollout_id]: 'cancelled',
          [r3.rollout_id]: 'preparing',
          [r4.rollout_id]: 'running',
          [r5.rollout_id]: 'preparing',
        });
        expect(await attemptsOf(store, r3.rollout_id)).toHaveLength(1);
        expect(await attemptsOf(store, r4.rollout_id)).toHaveLength(0);
      },
    },
    {
      id: 'queue.enqueue-many-order',
      title: 'enqueueManyRollouts keeps the request order and per-request fields',
      async run({ store }) {
        const rollouts = await store.enqueueManyRollouts([
          { input: { idx: 0 }, metadata: { batch: 'a' } },
          { input: { idx: 1 }, mode: 'train' },
          { input: { idx: 2 }, config: { timeout_seconds: 3.5 } },
        ]);
        expect(rollouts.map((r) => r.input)).toEqual([{ idx: 0 }, { idx: 1 }, { idx: 2 }]);
        expect(rollouts.every((r) => r.status === 'queuing')).toBe(true);
        expect(new Set(ids(rollouts)).size).toBe(3);
        expect(rollouts[0]!.metadata).toEqual({ batch: 'a' });
        expect(rollouts[1]!.mode).toBe('train');
        expect(rollouts[2]!.config.timeout_seconds).toBe(3.5);
        expect(rollouts[2]!.config.max_attempts).toBe(1);
        for (let i = 0; i < 3; i++) expect((await dequeue(store)).input).toEqual({ idx: i });
        expect(await store.dequeueRollout()).toBeNull();
      },
    },
    {
      id: 'queue.dequeue-many',
      title: 'dequeueManyRollouts honours limit (default 1) and stamps the worker on every attempt',
      async run({ store }) {
        await store.enqueueManyRollouts([0, 1, 2, 3, 4].map((idx) => ({ input: { idx } })));
        const first = await store.dequeueManyRollouts({ limit: 2, worker_id: 'bulk-worker' });
        expect(first.map((r) => r.input)).toEqual([{ idx: 0 }, { idx: 1 }]);
        expect(first.every((r) => r.attempt.worker_id === 'bulk-worker')).toBe(true);
        expect(first.every((r) => r.status === 'preparing' && r.attempt.sequence_id === 1)).toBe(
          true,
        );
        const worker = await store.getWorkerById('bulk-worker');
        expect(worker?.status).toBe('busy');
        // The worker is associated with the last dequeued attempt.
        expect(worker?.current_rollout_id).toBe(first[1]!.rollout_id);
        expect(worker?.current_attempt_id).toBe(first[1]!.attempt.attempt_id);

        const single = await store.dequeueManyRollouts();
        expect(single.map((r) => r.input)).toEqual([{ idx: 2 }]);
        expect(single[0]!.attempt.worker_id).toBeNull();

        const rest = await store.dequeueManyRollouts({ limit: 5, worker_id: 'bulk-worker' });
        expect(rest.map((r) => r.input)).toEqual([{ idx: 3 }, { idx: 4 }]);
        expect(await store.dequeueManyRollouts({ limit: 1 })).toEqual([]);
      },
    },
    {
      id: 'queue.dequeue-many-skips',
      title: 'dequeueManyRollouts skips non-queuing ids and keeps filling up to the limit',
      async run({ store }) {
        const queued = await store.enqueueManyRollouts([0, 1, 2, 3].map((idx) => ({ input: idx })));
        await store.updateRollout(queued[0]!.rollout_id, { status: 'cancelled' });
        await store.updateRollout(queued[2]!.rollout_id, { status: 'failed' });
        const got = await store.dequeueManyRollouts({ limit: 2 });
        expect(ids(got)).toEqual([queued[1]!.rollout_id, queued[3]!.rollout_id]);
        expect(await store.dequeueManyRollouts({ limit: 2 })).toEqual([]);
      },
    },
    {
      id: 'queue.requeue-via-update',
      title:
        'updateRollout(status: requeuing) puts a rollout back; the next dequeue creates attempt #2',
      async run({ store }) {
        const rollout = await store.enqueueRollout({ input: { data: 'test' } });
        await dequeue(store);
        expect(await store.dequeueRollout()).toBeNull();

        await store.updateRollout(rollout.rollout_id, { status: 'requeuing' });
        expect((await getRollout(store, rollout.rollout_id)).status).toBe('requeuing');
        const again = await dequeue(store);
        expect(again.rollout_id).toBe(rollout.rollout_id);
        expect(again.status).toBe('preparing');
        expect(again.attempt.sequence_id).toBe(2);
        expect(again.attempt.status).toBe('preparing');
        expect((await attemptsOf(store, rollout.rollout_id)).map((a) => a.sequence_id)).toEqual([
          1, 2,
        ]);
        expect(await store.dequeueRollout()).toBeNull();
      },
    },
    {
      id: 'queue.requeue-once',
      title: 'entering queuing/requeuing repeatedly enqueues the rollout only once',
      async run({ store }) {
        // Already queued: setting queuing again must not add a second entry.
        const queued = await store.enqueueRollout({ input: 'queued' });
        await store.updateRollout(queued.rollout_id, { status: 'queuing' });
        await store.updateRollout(queued.rollout_id, { status: 'requeuing' });
        // Taken out of the queue, then requeued twice.
        const started = await store.startRollout({ input: 'started' });
        await store.updateRollout(started.rollout_id, { status: 'requeuing' });
        await store.updateRollout(started.rollout_id, { status: 'requeuing' });
        await store.updateRollout(started.rollout_id, { status: 'queuing' });

        const got = await store.dequeueManyRollouts({ limit: 10 });
        expect(ids(got)).toEqual([queued.rollout_id, started.rollout_id]);
        expect(got[0]!.attempt.sequence_id).toBe(1);
        expect(got[1]!.attempt.sequence_id).toBe(2);
        expect(await store.dequeueRollout()).toBeNull();
      },
    },
  ],
};
