import { expect } from 'vitest';
import {
  attemptsOf,
  dequeue,
  expectNotFound,
  getRollout,
  latestAttempt,
  rolloutStatus,
} from '../helpers.js';
import type { CaseGroup } from '../target.js';

export const attemptCases: CaseGroup = {
  name: 'attempts',
  cases: [
    {
      id: 'attempt.start-attempt',
      title: 'startAttempt creates the next preparing attempt and sets the rollout preparing',
      async run({ store }) {
        const rollout = await store.enqueueRollout({ input: { test: 'data' } });
        const first = await store.startAttempt(rollout.rollout_id);
        expect(first.rollout_id).toBe(rollout.rollout_id);
        expect(first.status).toBe('preparing');
        expect(first.attempt.sequence_id).toBe(1);
        expect(first.attempt.status).toBe('preparing');
        expect(first.attempt.rollout_id).toBe(rollout.rollout_id);
        expect(first.attempt.attempt_id).toMatch(/^at-/);
        const second = await store.startAttempt(rollout.rollout_id);
        const third = await store.startAttempt(rollout.rollout_id);
        expect([second.attempt.sequence_id, third.attempt.sequence_id]).toEqual([2, 3]);
        const attempts = await attemptsOf(store, rollout.rollout_id);
        expect(attempts.map((a) => a.attempt_id)).toEqual([
          first.attempt.attempt_id,
          second.attempt.attempt_id,
          third.attempt.attempt_id,
        ]);
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('preparing');
      },
    },
    {
      id: 'attempt.start-attempt-ignores-max-attempts',
      title: 'startAttempt is a manual retry and ignores config.max_attempts',
      async run({ store }) {
        const rollout = await store.enqueueRollout({ input: 1, config: { max_attempts: 2 } });
        for (let i = 1; i <= 3; i++) {
          expect((await store.startAttempt(rollout.rollout_id)).attempt.sequence_id).toBe(i);
        }
        expect(await attemptsOf(store, rollout.rollout_id)).toHaveLength(3);
      },
    },
    {
      id: 'attempt.start-attempt-after-finish',
      title:
        'startAttempt on a finished rollout starts attempt k+1 and makes the rollout preparing again',
      async run({ store }) {
        const started = await store.startRollout({ input: 1 });
        await store.updateAttempt(started.rollout_id, started.attempt.attempt_id, {
          status: 'succeeded',
        });
        expect(await rolloutStatus(store, started.rollout_id)).toBe('succeeded');
        const retry = await store.startAttempt(started.rollout_id);
        expect(retry.attempt.sequence_id).toBe(2);
        expect(retry.status).toBe('preparing');
        expect(await rolloutStatus(store, started.rollout_id)).toBe('preparing');
      },
    },
    {
      id: 'attempt.start-attempt-unknown-rollout',
      title: 'startAttempt on an unknown rollout fails naming it and creates nothing',
      async run(ctx) {
        await expectNotFound(ctx, ctx.store.startAttempt('ro-nonexistent'), 'ro-nonexistent');
        expect((await ctx.store.statistics()).total_attempts).toBe(0);
      },
    },
    {
      id: 'attempt.sequence-ids',
      title: 'attempt sequence ids count 1, 2, 3… across dequeue, requeue and startAttempt',
      async run({ store }) {
        const rollout = await store.enqueueRollout({ input: 1 });
        expect(await store.getLatestAttempt(rollout.rollout_id)).toBeNull();
        expect(await attemptsOf(store, rollout.rollout_id)).toEqual([]);
        expect((await dequeue(store)).attempt.sequence_id).toBe(1);
        expect((await latestAttempt(store, rollout.rollout_id)).sequence_id).toBe(1);
        await store.updateRollout(rollout.rollout_id, { status: 'requeuing' });
        expect((await dequeue(store)).attempt.sequence_id).toBe(2);
        expect((await latestAttempt(store, rollout.rollout_id)).sequence_id).toBe(2);
        expect((await store.startAttempt(rollout.rollout_id)).attempt.sequence_id).toBe(3);
        const attempts = await attemptsOf(store, rollout.rollout_id);
        expect(attempts.map((a) => a.sequence_id)).toEqual([1, 2, 3]);
        expect(attempts.map((a) => a.status)).toEqual(['preparing', 'preparing', 'preparing']);
        expect((await latestAttempt(store, rollout.rollout_id)).attempt_id).toBe(
          attempts[2]!.attempt_id,
        );
      },
    },
    {
      id: 'attempt.update-fields',
      title: 'updateAttempt sets status, worker_id, last_heartbeat_time and metadata',
      async run({ store, clock }) {
        const rollout = await store.enqueueRollout({ input: 1 });
        const { attempt } = await dequeue(store);
        const heartbeat = clock.now() - 5;
        const updated = await store.updateAttempt(rollout.rollout_id, attempt.attempt_id, {
          status: 'running',
          worker_id: 'worker-123',
          last_heartbeat_time: heartbeat,
          metadata: { custom: 'value' },
        });
        expect(updated.attempt_id).toBe(attempt.attempt_id);
        expect(updated.status).toBe('running');
        expect(updated.worker_id).toBe('worker-123');
        expect(updated.last_heartbeat_time).toBe(heartbeat);
        expect(updated.metadata).toEqual({ custom: 'value' });
        expect(updated.end_time).toBeNull();
        const stored = await latestAttempt(store, rollout.rollout_id);
        expect(stored).toEqual(updated);
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('running');
      },
    },
    {
      id: 'attempt.update-unset-vs-null',
      title: 'updateAttempt leaves omitted fields alone and clears fields given as null',
      async run({ store }) {
        const started = await store.startRollout({ input: 1, worker_id: 'w' });
        const key = [started.rollout_id, started.attempt.attempt_id] as const;
        await store.updateAttempt(...key, { metadata: { keep: true }, last_heartbeat_time: 123 });
        const kept = await store.updateAttempt(...key, { status: 'running' });
        expect(kept.metadata).toEqual({ keep: true });
        expect(kept.last_heartbeat_time).toBe(123);
        expect(kept.worker_id).toBe('w');
        const cleared = await store.updateAttempt(...key, {
          metadata: null,
          last_heartbeat_time: null,
        });
        expect(cleared.metadata).toBeNull();
        expect(cleared.last_heartbeat_time).toBeNull();
        expect(cleared.status).toBe('running');
        expect(await latestAttempt(store, started.rollout_id)).toEqual(cleared);
      },
    },
    {
      id: 'attempt.update-latest-alias',
      title: 'updateAttempt(rollout, "latest") updates the attempt with the highest sequence id',
      async run({ store }) {
        const rollout = await store.enqueueRollout({ input: 1 });
        await store.startAttempt(rollout.rollout_id);
        await store.startAttempt(rollout.rollout_id);
        const third = await store.startAttempt(rollout.rollout_id);
        const updated = await store.updateAttempt(rollout.rollout_id, 'latest', {
          status: 'succeeded',
        });
        expect(updated.attempt_id).toBe(third.attempt.attempt_id);
        expect(updated.status).toBe('succeeded');
        expect(updated.end_time).not.toBeNull();
        const attempts = await attemptsOf(store, rollout.rollout_id);
        expect(attempts.map((a) => a.status)).toEqual(['preparing', 'preparing', 'succeeded']);
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('succeeded');
      },
    },
    {
      id: 'attempt.update-unknown',
      title:
        'updateAttempt fails naming the unknown rollout, the attempt-less rollout or the unknown attempt',
      async run(ctx) {
        const { store } = ctx;
        await expectNotFound(
          ctx,
          store.updateAttempt('ro-missing', 'latest', { status: 'failed' }),
          'ro-missing',
        );
        const queued = await store.enqueueRollout({ input: 1 });
        await expectNotFound(
          ctx,
          store.updateAttempt(queued.rollout_id, 'at-nonexistent', { status: 'failed' }),
        );
        await expectNotFound(
          ctx,
          store.updateAttempt(queued.rollout_id, 'latest', { status: 'failed' }),
          queued.rollout_id,
        );
        const started = await store.startRollout({ input: 2 });
        await expectNotFound(
          ctx,
          store.updateAttempt(started.rollout_id, 'at-nonexistent', { status: 'failed' }),
          'at-nonexistent',
        );
        expect((await getRollout(store, queued.rollout_id)).status).toBe('queuing');
        expect((await latestAttempt(store, started.rollout_id)).status).toBe('preparing');
        expect((await getRollout(store, started.rollout_id)).status).toBe('preparing');
      },
    },
    {
      id: 'attempt.latest-unknown',
      title: 'getLatestAttempt returns null for unknown rollouts and rollouts without attempts',
      async run({ store }) {
        expect(await store.getLatestAttempt('ro-nonexistent')).toBeNull();
        const queued = await store.enqueueRollout({ input: 1 });
        expect(await store.getLatestAttempt(queued.rollout_id)).toBeNull();
      },
    },
  ],
};
