import { expect } from 'vitest';
import { dequeue } from '../helpers.js';
import type { CaseGroup } from '../target.js';

const workerIds = (page: { items: Array<{ worker_id: string }> }): string[] =>
  page.items.map((w) => w.worker_id);

export const workerCases: CaseGroup = {
  name: 'workers',
  cases: [
    {
      id: 'worker.update-worker',
      title:
        'updateWorker upserts with status unknown, stamps the heartbeat and replaces heartbeat_stats',
      clock: true,
      async run({ store, clock }) {
        const first = await store.updateWorker('worker-1', { heartbeat_stats: { cpu: 0.5 } });
        expect(first).toEqual({
          worker_id: 'worker-1',
          status: 'unknown',
          heartbeat_stats: { cpu: 0.5 },
          last_heartbeat_time: clock.now(),
          last_dequeue_time: null,
          last_busy_time: null,
          last_idle_time: null,
          current_rollout_id: null,
          current_attempt_id: null,
        });
        expect(await store.getWorkerById('worker-1')).toEqual(first);

        clock.advance(5);
        const second = await store.updateWorker('worker-1');
        expect(second.heartbeat_stats).toEqual({ cpu: 0.5 });
        expect(second.last_heartbeat_time).toBe(clock.now());

        clock.advance(1);
        const third = await store.updateWorker('worker-1', { heartbeat_stats: { mem: 2 } });
        expect(third.heartbeat_stats).toEqual({ mem: 2 });
        expect(third.last_heartbeat_time).toBe(clock.now());
        expect((await store.queryWorkers()).total).toBe(1);
      },
    },
    {
      id: 'worker.dequeue-sync',
      title:
        'dequeue with a worker id marks the worker busy on the new attempt and stamps last_dequeue_time',
      clock: true,
      async run({ store, clock }) {
        const rollout = await store.enqueueRollout({ input: 1 });
        clock.advance(1);
        const got = await dequeue(store, 'w');
        expect(got.attempt.worker_id).toBe('w');
        expect(await store.getWorkerById('w')).toEqual({
          worker_id: 'w',
          status: 'busy',
          heartbeat_stats: null,
          last_heartbeat_time: null,
          last_dequeue_time: clock.now(),
          last_busy_time: clock.now(),
          last_idle_time: null,
          current_rollout_id: rollout.rollout_id,
          current_attempt_id: got.attempt.attempt_id,
        });
      },
    },
    {
      id: 'worker.dequeue-empty-idle',
      title:
        'a dequeue that finds nothing marks the worker idle (an already idle worker only gets last_dequeue_time)',
      clock: true,
      async run({ store, clock }) {
        expect(await store.dequeueRollout({ worker_id: 'idle-w' })).toBeNull();
        const t1 = clock.now();
        let worker = await store.getWorkerById('idle-w');
        expect(worker?.status).toBe('idle');
        expect(worker?.last_idle_time).toBe(t1);
        expect(worker?.last_dequeue_time).toBe(t1);

        clock.advance(5);
        expect(await store.dequeueRollout({ worker_id: 'idle-w' })).toBeNull();
        worker = await store.getWorkerById('idle-w');
        expect(worker?.status).toBe('idle');
        expect(worker?.last_dequeue_time).toBe(clock.now());
        expect(worker?.last_idle_time).toBe(t1);

        await store.enqueueRollout({ input: 1 });
        await dequeue(store, 'busy-w');
        expect((await store.getWorkerById('busy-w'))?.status).toBe('busy');
        clock.advance(1);
        expect(await store.dequeueRollout({ worker_id: 'busy-w' })).toBeNull();
        worker = await store.getWorkerById('busy-w');
        expect(worker?.status).toBe('idle');
        expect(worker?.last_idle_time).toBe(clock.now());

        expect(await store.dequeueManyRollouts({ limit: 3, worker_id: 'many-w' })).toEqual([]);
        expect((await store.getWorkerById('many-w'))?.status).toBe('idle');
      },
    },
    {
      id: 'worker.update-attempt-sync',
      title:
        'attempt updates sync the worker: succeeded/failed → idle, timeout/unresponsive → unknown, else busy',
      clock: true,
      async run({ store, clock }) {
        const s1 = await store.startRollout({ input: 1, worker_id: 'w' });
        clock.advance(1);
        await store.updateAttempt(s1.rollout_id, 'latest', { status: 'running' });
        let worker = await store.getWorkerById('w');
        expect(worker?.status).toBe('busy');
        expect(worker?.last_busy_time).toBe(clock.now());
        expect(worker?.current_attempt_id).toBe(s1.attempt.attempt_id);

        clock.advance(1);
        await store.updateAttempt(s1.rollout_id, 'latest', { status: 'succeeded' });
        worker = await store.getWorkerById('w');
        expect(worker?.status).toBe('idle');
        expect(worker?.last_idle_time).toBe(clock.now());
        expect(worker?.current_rollout_id).toBeNull();
        expect(worker?.current_attempt_id).toBeNull();

        const expectations = [
          ['failed', 'idle'],
          ['timeout', 'unknown'],
          ['unresponsive', 'unknown'],
        ] as const;
        for (const [attemptStatus, workerStatus] of expectations) {
          const started = await store.startRollout({ input: attemptStatus, worker_id: 'w' });
          worker = await store.getWorkerById('w');
          expect(worker?.status).toBe('busy');
          expect(worker?.current_rollout_id).toBe(started.rollout_id);
          await store.updateAttempt(started.rollout_id, 'latest', { status: attemptStatus });
          worker = await store.getWorkerById('w');
          expect(worker?.status, `after ${attemptStatus}`).toBe(workerStatus);
          expect(worker?.current_rollout_id).toBeNull();
          expect(worker?.current_attempt_id).toBeNull();
        }

        // Assigning a worker through updateAttempt makes it busy on that attempt.
        const s5 = await store.startRollout({ input: 5 });
        await store.updateAttempt(s5.rollout_id, s5.attempt.attempt_id, { worker_id: 'w5' });
        worker = await store.getWorkerById('w5');
        expect(worker?.status).toBe('busy');
        expect(worker?.current_rollout_id).toBe(s5.rollout_id);
        expect(worker?.current_attempt_id).toBe(s5.attempt.attempt_id);
      },
    },
    {
      id: 'worker.no-worker-no-sync',
      title: 'attempts without a worker id create no worker records',
      async run({ store }) {
        const started = await store.startRollout({ input: 1 });
        await store.updateAttempt(started.rollout_id, 'latest', { status: 'succeeded' });
        await store.enqueueRollout({ input: 2 });
        await dequeue(store);
        expect(await store.dequeueRollout()).toBeNull();
        expect((await store.queryWorkers()).total).toBe(0);
      },
    },
    {
      id: 'worker.sync-preserves-heartbeat',
      title: 'status syncs keep heartbeat_stats and last_heartbeat_time',
      async run({ store }) {
        const initial = await store.updateWorker('keep', { heartbeat_stats: { cpu: 0.42 } });
        const started = await store.startRollout({ input: 1, worker_id: 'keep' });
        let worker = await store.getWorkerById('keep');
        expect(worker?.status).toBe('busy');
        expect(worker?.heartbeat_stats).toEqual({ cpu: 0.42 });
        expect(worker?.last_heartbeat_time).toBe(initial.last_heartbeat_time);
        await store.updateAttempt(started.rollout_id, 'latest', { status: 'succeeded' });
        worker = await store.getWorkerById('keep');
        expect(worker?.status).toBe('idle');
        expect(worker?.heartbeat_stats).toEqual({ cpu: 0.42 });
        expect(worker?.last_heartbeat_time).toBe(initial.last_heartbeat_time);
        // A heartbeat does not change the status.
        await store.updateWorker('keep');
        expect((await store.getWorkerById('keep'))?.status).toBe('idle');
      },
    },
    {
      id: 'worker.assignment',
      title:
        'startRollout, startAttempt and dequeueRollout with a worker id stamp the attempt and the worker',
      async run({ store }) {
        const direct = await store.startRollout({ input: 1, worker_id: 'w-direct' });
        expect(direct.attempt.worker_id).toBe('w-direct');
        const retry = await store.startAttempt(direct.rollout_id, { worker_id: 'w-retry' });
        expect(retry.attempt.sequence_id).toBe(2);
        expect(retry.attempt.worker_id).toBe('w-retry');
        await store.enqueueRollout({ input: 2 });
        const dequeued = await dequeue(store, 'w-dequeue');
        expect(dequeued.attempt.worker_id).toBe('w-dequeue');

        for (const [workerId, rollout] of [
          ['w-direct', direct],
          ['w-retry', retry],
          ['w-dequeue', dequeued],
        ] as const) {
          const worker = await store.getWorkerById(workerId);
          expect(worker?.status).toBe('busy');
          expect(worker?.current_rollout_id).toBe(rollout.rollout_id);
          expect(worker?.current_attempt_id).toBe(rollout.attempt.attempt_id);
        }
        expect((await store.getWorkerById('w-direct'))?.last_dequeue_time).toBeNull();
        expect((await store.getWorkerById('w-dequeue'))?.last_dequeue_time).not.toBeNull();
        expect(await store.getWorkerById('missing')).toBeNull();
      },
    },
    {
      id: 'worker.query',
      title:
        'queryWorkers filters by status_in and worker_id_contains (and/or), sorts and paginates',
      async run({ store }) {
        await store.updateWorker('alpha-worker', { heartbeat_stats: { cpu: 0.2 } });
        await store.updateWorker('beta-worker', { heartbeat_stats: { cpu: 0.8 } });
        await store.updateWorker('cpu-worker', { heartbeat_stats: { cpu: 0.1 } });
        const busy = await store.startRollout({ input: 'alpha' });
        await store.updateAttempt(busy.rollout_id, busy.attempt.attempt_id, {
          worker_id: 'alpha-worker',
          status: 'running',
        });
        const idle = await store.startRollout({ input: 'beta' });
        await store.updateAttempt(idle.rollout_id, idle.attempt.attempt_id, {
          worker_id: 'beta-worker',
          status: 'succeeded',
        });

        expect(workerIds(await store.queryWorkers({ status_in: ['busy'] }))).toEqual([
          'alpha-worker',
        ]);
        expect(
          workerIds(
            await store.queryWorkers({ status_in: ['idle', 'unknown'], sort_by: 'worker_id' }),
          ),
        ).toEqual(['beta-worker', 'cpu-worker']);
        expect(workerIds(await store.queryWorkers({ worker_id_contains: 'beta' }))).toEqual([
          'beta-worker',
        ]);
        expect((await store.queryWorkers({ status_in: [] })).total).toBe(0);
        expect(
          (await store.queryWorkers({ status_in: ['busy'], worker_id_contains: 'cpu' })).total,
        ).toBe(0);
        const or = await store.queryWorkers({
          status_in: ['busy'],
          worker_id_contains: 'cpu',
          filter_logic: 'or',
          sort_by: 'worker_id',
        });
        expect(workerIds(or)).toEqual(['alpha-worker', 'cpu-worker']);
        const and = await store.queryWorkers({
          status_in: ['busy'],
          worker_id_contains: 'alpha',
          filter_logic: 'and',
          sort_by: 'worker_id',
          limit: 1,
        });
        expect(workerIds(and)).toEqual(['alpha-worker']);

        const sorted = await store.queryWorkers({ sort_by: 'worker_id', sort_order: 'desc' });
        expect(workerIds(sorted)).toEqual(['cpu-worker', 'beta-worker', 'alpha-worker']);
        const page = await store.queryWorkers({
          sort_by: 'worker_id',
          sort_order: 'desc',
          limit: 1,
          offset: 1,
        });
        expect(workerIds(page)).toEqual(['beta-worker']);
        expect([page.limit, page.offset, page.total]).toEqual([1, 1, 3]);
      },
    },
  ],
};
