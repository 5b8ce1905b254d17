import { expect } from 'vitest';
import {
  attemptsOf,
  dequeue,
  getRollout,
  heartbeat,
  latestAttempt,
  rolloutStatus,
} from '../helpers.js';
import type { CaseGroup } from '../target.js';

export const statusCases: CaseGroup = {
  name: 'status propagation',
  cases: [
    {
      id: 'status.span-starts-running',
      title:
        'the first span moves a preparing attempt and its rollout to running and records a heartbeat',
      async run({ store }) {
        const rollout = await store.enqueueRollout({ input: 1 });
        const { attempt } = await dequeue(store);
        expect(attempt.last_heartbeat_time).toBeNull();
        expect((await store.queryRollouts({ status_in: ['preparing'] })).total).toBe(1);
        await heartbeat(store, rollout.rollout_id, attempt.attempt_id);
        const after = await latestAttempt(store, rollout.rollout_id);
        expect(after.status).toBe('running');
        expect(after.last_heartbeat_time).not.toBeNull();
        const running = await store.queryRollouts({ status_in: ['running'] });
        expect(running.items.map((r) => r.rollout_id)).toEqual([rollout.rollout_id]);
      },
    },
    {
      id: 'status.heartbeat-time',
      title: 'each span stamps last_heartbeat_time with the current time',
      clock: true,
      async run({ store, clock }) {
        const started = await store.startRollout({ input: 1 });
        clock.advance(2);
        await heartbeat(store, started.rollout_id, started.attempt.attempt_id);
        expect((await latestAttempt(store, started.rollout_id)).last_heartbeat_time).toBe(
          clock.now(),
        );
        clock.advance(100);
        await heartbeat(store, started.rollout_id, started.attempt.attempt_id);
        const attempt = await latestAttempt(store, started.rollout_id);
        expect(attempt.last_heartbeat_time).toBe(clock.now());
        expect(attempt.status).toBe('running');
      },
    },
    {
      id: 'status.latest-only',
      title: 'only the latest attempt decides the rollout status',
      async run({ store }) {
        const rollout = await store.enqueueRollout({ input: 1 });
        const a1 = await store.startAttempt(rollout.rollout_id);
        await store.startAttempt(rollout.rollout_id);
        const a3 = await store.startAttempt(rollout.rollout_id);
        await store.updateAttempt(rollout.rollout_id, a1.attempt.attempt_id, {
          status: 'succeeded',
        });
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('preparing');
        await store.updateAttempt(rollout.rollout_id, a3.attempt.attempt_id, {
          status: 'succeeded',
        });
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('succeeded');
      },
    },
    {
      id: 'status.latest-only-retry',
      title: 'a failing older attempt does not trigger a retry; a failing latest attempt does',
      async run({ store }) {
        const rollout = await store.enqueueRollout({
          input: 1,
          config: { max_attempts: 3, retry_condition: ['failed'] },
        });
        const a1 = await store.startAttempt(rollout.rollout_id);
        const a2 = await store.startAttempt(rollout.rollout_id);
        await store.updateAttempt(rollout.rollout_id, a1.attempt.attempt_id, { status: 'failed' });
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('preparing');
        await store.updateAttempt(rollout.rollout_id, a2.attempt.attempt_id, { status: 'failed' });
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('requeuing');
      },
    },
    {
      id: 'status.latest-moves',
      title: 'once a newer attempt exists, updates to the older one no longer propagate',
      async run({ store }) {
        const rollout = await store.enqueueRollout({ input: 1 });
        const a1 = await store.startAttempt(rollout.rollout_id);
        await store.updateAttempt(rollout.rollout_id, a1.attempt.attempt_id, {
          status: 'succeeded',
        });
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('succeeded');
        const a2 = await store.startAttempt(rollout.rollout_id);
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('preparing');
        await store.updateAttempt(rollout.rollout_id, a1.attempt.attempt_id, { status: 'failed' });
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('preparing');
        await store.updateAttempt(rollout.rollout_id, a2.attempt.attempt_id, { status: 'failed' });
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('failed');
      },
    },
    {
      id: 'status.retry-requeue',
      title:
        'a failed attempt in retry_condition below max_attempts requeues; dequeue creates attempt k+1',
      async run({ store }) {
        const rollout = await store.enqueueRollout({
          input: 1,
          config: { max_attempts: 2, retry_condition: ['failed'] },
        });
        const first = await dequeue(store, 'w1');
        const failed = await store.updateAttempt(rollout.rollout_id, first.attempt.attempt_id, {
          status: 'failed',
        });
        expect(failed.end_time).not.toBeNull();
        const requeued = await getRollout(store, rollout.rollout_id);
        expect(requeued.status).toBe('requeuing');
        expect(requeued.end_time).toBeNull();

        const second = await dequeue(store, 'w2');
        expect(second.rollout_id).toBe(rollout.rollout_id);
        expect(second.attempt.sequence_id).toBe(2);
        expect(second.attempt.worker_id).toBe('w2');
        expect(second.status).toBe('preparing');
        await store.updateAttempt(rollout.rollout_id, second.attempt.attempt_id, {
          status: 'failed',
        });
        const final = await getRollout(store, rollout.rollout_id);
        expect(final.status).toBe('failed');
        expect(final.end_time).not.toBeNull();
        expect(await store.dequeueRollout()).toBeNull();
        expect((await attemptsOf(store, rollout.rollout_id)).map((a) => a.status)).toEqual([
          'failed',
          'failed',
        ]);
      },
    },
    {
      id: 'status.retry-condition-miss',
      title: 'statuses outside retry_condition, or reaching max_attempts, fail the rollout',
      async run({ store }) {
        const notRetried = await store.startRollout({
          input: 1,
          config: { max_attempts: 3, retry_condition: ['timeout'] },
        });
        await store.updateAttempt(notRetried.rollout_id, 'latest', { status: 'failed' });
        expect(await rolloutStatus(store, notRetried.rollout_id)).toBe('failed');

        const exhausted = await store.startRollout({
          input: 2,
          config: { max_attempts: 1, retry_condition: ['unresponsive'] },
        });
        await store.updateAttempt(exhausted.rollout_id, 'latest', { status: 'unresponsive' });
        expect(await rolloutStatus(store, exhausted.rollout_id)).toBe('failed');

        const retried = await store.startRollout({
          input: 3,
          config: { max_attempts: 2, retry_condition: ['timeout', 'unresponsive'] },
        });
        await store.updateAttempt(retried.rollout_id, 'latest', { status: 'timeout' });
        expect(await rolloutStatus(store, retried.rollout_id)).toBe('requeuing');
        expect(await store.dequeueRollout()).not.toBeNull();
        await store.updateAttempt(retried.rollout_id, 'latest', { status: 'unresponsive' });
        expect(await rolloutStatus(store, retried.rollout_id)).toBe('failed');
        expect(await store.dequeueRollout()).toBeNull();
      },
    },
    {
      id: 'status.cancelled',
      title: 'cancelled rollouts are skipped by dequeue, set end_time and are not revived by spans',
      async run({ store }) {
        const queued = await store.enqueueRollout({ input: 'queued' });
        const cancelled = await store.updateRollout(queued.rollout_id, { status: 'cancelled' });
        expect(cancelled.status).toBe('cancelled');
        expect(cancelled.end_time).not.toBeNull();
        expect(await store.dequeueRollout()).toBeNull();

        const started = await store.startRollout({ input: 'running' });
        await heartbeat(store, started.rollout_id, started.attempt.attempt_id);
        await store.updateRollout(started.rollout_id, { status: 'cancelled' });
        await heartbeat(store, started.rollout_id, started.attempt.attempt_id);
        expect(await rolloutStatus(store, started.rollout_id)).toBe('cancelled');
        expect((await latestAttempt(store, started.rollout_id)).status).toBe('running');

        const finished = await store.waitForRollouts({
          rollout_ids: [queued.rollout_id, started.rollout_id],
          timeout: 0,
        });
        expect(finished.map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
      },
    },
    {
      id: 'status.end-time-rules',
      title:
        'attempt end_time only for succeeded/failed; rollout end_time only for succeeded/failed/cancelled',
      clock: true,
      async run({ store, clock }) {
        const started = await store.startRollout({ input: 1 });
        const key = [started.rollout_id, started.attempt.attempt_id] as const;
        for (const status of ['running', 'unresponsive', 'timeout', 'preparing'] as const) {
          clock.advance(1);
          expect((await store.updateAttempt(...key, { status })).end_time).toBeNull();
        }
        clock.advance(1);
        expect((await store.updateAttempt(...key, { status: 'failed' })).end_time).toBe(
          clock.now(),
        );
        clock.advance(1);
        expect((await store.updateAttempt(...key, { status: 'succeeded' })).end_time).toBe(
          clock.now(),
        );

        // Propagated from the latest attempt.
        const retrying = await store.startRollout({
          input: 2,
          config: { max_attempts: 2, retry_condition: ['failed'] },
        });
        clock.advance(1);
        await store.updateAttempt(retrying.rollout_id, 'latest', { status: 'failed' });
        expect((await getRollout(store, retrying.rollout_id)).end_time).toBeNull();
        await dequeue(store);
        clock.advance(1);
        await store.updateAttempt(retrying.rollout_id, 'latest', { status: 'failed' });
        const failed = await getRollout(store, retrying.rollout_id);
        expect(failed.status).toBe('failed');
        expect(failed.end_time).toBe(clock.now());

        // Set directly.
        for (const status of ['preparing', 'running', 'requeuing', 'queuing'] as const) {
          const rollout = await store.enqueueRollout({ input: status });
          expect((await store.updateRollout(rollout.rollout_id, { status })).end_time).toBeNull();
        }
        for (const status of ['succeeded', 'failed', 'cancelled'] as const) {
          const rollout = await store.enqueueRollout({ input: status });
          clock.advance(1);
          const updated = await store.updateRollout(rollout.rollout_id, { status });
          expect(updated.end_time).toBe(clock.now());
          expect((await getRollout(store, rollout.rollout_id)).end_time).toBe(clock.now());
        }
      },
    },
    {
      id: 'status.full-lifecycle',
      title: 'queue → prepare → run → fail → requeue → retry → succeed',
      async run({ store }) {
        const rollout = await store.enqueueRollout({ input: { test: 'data' }, mode: 'train' });
        const first = await dequeue(store);
        const span = await heartbeat(store, rollout.rollout_id, first.attempt.attempt_id);
        expect(span.sequence_id).toBe(1);
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('running');

        await store.updateAttempt(rollout.rollout_id, first.attempt.attempt_id, {
          status: 'failed',
        });
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('failed');
        await store.updateRollout(rollout.rollout_id, { status: 'requeuing' });
        expect((await attemptsOf(store, rollout.rollout_id)).map((a) => a.status)).toEqual([
          'failed',
        ]);

        const second = await dequeue(store);
        expect(second.attempt.sequence_id).toBe(2);
        expect((await latestAttempt(store, rollout.rollout_id)).status).toBe('preparing');
        await heartbeat(store, rollout.rollout_id, second.attempt.attempt_id);
        expect((await latestAttempt(store, rollout.rollout_id)).status).toBe('running');
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('running');

        await store.updateAttempt(rollout.rollout_id, second.attempt.attempt_id, {
          status: 'succeeded',
        });
        const final = await getRollout(store, rollout.rollout_id);
        expect(final.status).toBe('succeeded');
        expect(final.end_time).not.toBeNull();
        expect((await attemptsOf(store, rollout.rollout_id)).map((a) => a.status)).toEqual([
          'failed',
          'succeeded',
        ]);
      },
    },
  ],
};
