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

export const revivalCases: CaseGroup = {
  name: 'revival (spans after failure)',
  cases: [
    {
      id: 'status.revive-before-retry',
      title:
        'a requeued attempt that sends a span again resumes running and is not dequeued for retry',
      async run({ store }) {
        const started = await store.startRollout({ input: { foo: 'bar' } });
        await store.updateRollout(started.rollout_id, {
          config: { max_attempts: 2, retry_condition: ['unresponsive'] },
        });
        await store.updateAttempt(started.rollout_id, started.attempt.attempt_id, {
          status: 'unresponsive',
        });
        expect(await rolloutStatus(store, started.rollout_id)).toBe('requeuing');

        await heartbeat(store, started.rollout_id, started.attempt.attempt_id);
        const latest = await latestAttempt(store, started.rollout_id);
        expect(latest.attempt_id).toBe(started.attempt.attempt_id);
        expect(latest.status).toBe('running');
        expect(await rolloutStatus(store, started.rollout_id)).toBe('running');
        expect(await store.dequeueRollout()).toBeNull();
      },
    },
    {
      id: 'status.revive-succeeds',
      title: 'a revived requeued attempt can succeed without a new attempt',
      async run({ store }) {
        const started = await store.startRollout({
          input: 1,
          config: { max_attempts: 2, retry_condition: ['unresponsive'] },
        });
        const key = [started.rollout_id, started.attempt.attempt_id] as const;
        await store.updateAttempt(...key, { status: 'unresponsive' });
        await heartbeat(store, ...key);
        await store.updateAttempt(...key, { status: 'succeeded' });
        expect(await rolloutStatus(store, started.rollout_id)).toBe('succeeded');
        const latest = await latestAttempt(store, started.rollout_id);
        expect(latest.attempt_id).toBe(started.attempt.attempt_id);
        expect(latest.status).toBe('succeeded');
        expect(latest.end_time).not.toBeNull();
        expect(await store.dequeueRollout()).toBeNull();
        expect(await attemptsOf(store, started.rollout_id)).toHaveLength(1);
      },
    },
    {
      id: 'status.revive-fails',
      title:
        'a revived requeued attempt that fails (failed not retried) fails the rollout without a new attempt',
      async run({ store }) {
        const started = await store.startRollout({
          input: 1,
          config: { max_attempts: 2, retry_condition: ['unresponsive'] },
        });
        const key = [started.rollout_id, started.attempt.attempt_id] as const;
        await store.updateAttempt(...key, { status: 'unresponsive' });
        await heartbeat(store, ...key);
        await store.updateAttempt(...key, { status: 'failed' });
        expect(await rolloutStatus(store, started.rollout_id)).toBe('failed');
        const latest = await latestAttempt(store, started.rollout_id);
        expect(latest.status).toBe('failed');
        expect(latest.end_time).not.toBeNull();
        expect(await store.dequeueRollout()).toBeNull();
        expect(await attemptsOf(store, started.rollout_id)).toHaveLength(1);
      },
    },
    {
      id: 'status.revive-after-retry-started',
      title: 'spans from an old attempt revive it but do not disturb the newer retry',
      async run({ store }) {
        const started = await store.startRollout({
          input: 1,
          config: { max_attempts: 2, retry_condition: ['unresponsive'] },
        });
        await store.updateAttempt(started.rollout_id, started.attempt.attempt_id, {
          status: 'unresponsive',
        });
        const retried = await dequeue(store);
        expect(retried.attempt.sequence_id).toBe(2);

        await heartbeat(store, started.rollout_id, started.attempt.attempt_id);
        const latest = await latestAttempt(store, started.rollout_id);
        expect(latest.attempt_id).toBe(retried.attempt.attempt_id);
        expect(latest.status).toBe('preparing');
        const attempts = await attemptsOf(store, started.rollout_id);
        expect(attempts.map((a) => a.status)).toEqual(['running', 'preparing']);
        expect(await rolloutStatus(store, started.rollout_id)).toBe('preparing');
        expect(await store.dequeueRollout()).toBeNull();
      },
    },
    {
      id: 'status.timeout-not-revived',
      title: 'a span never revives a timed-out attempt (the heartbeat is still recorded)',
      async run({ store }) {
        const rollout = await store.enqueueRollout({ input: 1 });
        const { attempt } = await dequeue(store);
        await store.updateAttempt(rollout.rollout_id, attempt.attempt_id, { status: 'timeout' });
        const before = await getRollout(store, rollout.rollout_id);
        expect(before.status).toBe('failed');
        await heartbeat(store, rollout.rollout_id, attempt.attempt_id);
        const after = await latestAttempt(store, rollout.rollout_id);
        expect(after.status).toBe('timeout');
        expect(after.last_heartbeat_time).not.toBeNull();
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('failed');
      },
    },
    {
      id: 'status.failed-stays-failed',
      title:
        'an unresponsive attempt revives on a span, but its already failed rollout stays failed',
      async run({ store }) {
        const started = await store.startRollout({ input: 1 });
        await store.updateAttempt(started.rollout_id, started.attempt.attempt_id, {
          status: 'unresponsive',
        });
        const failed = await getRollout(store, started.rollout_id);
        expect(failed.status).toBe('failed');
        expect(failed.end_time).not.toBeNull();
        await heartbeat(store, started.rollout_id, started.attempt.attempt_id);
        expect((await latestAttempt(store, started.rollout_id)).status).toBe('running');
        const after = await getRollout(store, started.rollout_id);
        expect(after.status).toBe('failed');
        expect(after.end_time).toBe(failed.end_time);
      },
    },
  ],
};
