import { expect } from 'vitest';
import { ids, sleep } from '../helpers.js';
import type { CaseGroup } from '../target.js';

/** Generous per-case limit for waits without a timeout (remote stores may poll). */
const UNBOUNDED_WAIT_MS = 30_000;

export const waitCases: CaseGroup = {
  name: 'waitForRollouts',
  cases: [
    {
      id: 'wait.finish-during-wait',
      title:
        'rollouts finishing while waiting are returned with their final status, in input order',
      async run({ store }) {
        const [r1, r2] = await store.enqueueManyRollouts([
          { input: 1 },
          { input: 2 },
          { input: 3 },
        ]);
        const waiting = store.waitForRollouts({
          rollout_ids: [r1!.rollout_id, r2!.rollout_id],
          timeout: 0.5,
        });
        await sleep(10);
        await store.updateRollout(r1!.rollout_id, { status: 'succeeded' });
        await store.updateRollout(r2!.rollout_id, { status: 'failed' });
        const done = await waiting;
        expect(ids(done)).toEqual([r1!.rollout_id, r2!.rollout_id]);
        expect(done.map((r) => r.status)).toEqual(['succeeded', 'failed']);
        expect(done[0]!.end_time).not.toBeNull();
      },
    },
    {
      id: 'wait.finish-via-attempt',
      title: 'a rollout finished through its attempt (updateAttempt) wakes the waiter',
      timeoutMs: UNBOUNDED_WAIT_MS,
      async run({ store }) {
        const started = await store.startRollout({ input: 1 });
        const waiting = store.waitForRollouts({ rollout_ids: [started.rollout_id], timeout: null });
        await sleep(20);
        await store.updateAttempt(started.rollout_id, 'latest', { status: 'succeeded' });
        const done = await waiting;
        expect(ids(done)).toEqual([started.rollout_id]);
        expect(done[0]!.status).toBe('succeeded');
      },
    },
    {
      id: 'wait.timeout-returns-empty',
      title: 'unfinished rollouts are left out when the timeout expires',
      async run({ store }) {
        const rollout = await store.enqueueRollout({ input: 1 });
        expect(
          await store.waitForRollouts({ rollout_ids: [rollout.rollout_id], timeout: 0.1 }),
        ).toEqual([]);
      },
    },
    {
      id: 'wait.timeout-zero',
      title: 'timeout 0 checks once: finished rollouts are returned, unfinished ones are not',
      async run({ store }) {
        const open = await store.enqueueRollout({ input: 'open' });
        const done = await store.enqueueRollout({ input: 'done' });
        await store.updateRollout(done.rollout_id, { status: 'succeeded' });
        expect(await store.waitForRollouts({ rollout_ids: [open.rollout_id], timeout: 0 })).toEqual(
          [],
        );
        const got = await store.waitForRollouts({
          rollout_ids: [open.rollout_id, done.rollout_id],
          timeout: 0,
        });
        expect(ids(got)).toEqual([done.rollout_id]);
      },
    },
    {
      id: 'wait.already-finished',
      title: 'already finished rollouts are returned at once, even without a timeout',
      timeoutMs: UNBOUNDED_WAIT_MS,
      async run({ store }) {
        const rollout = await store.enqueueRollout({ input: 1 });
        await store.updateRollout(rollout.rollout_id, { status: 'succeeded' });
        const bounded = await store.waitForRollouts({
          rollout_ids: [rollout.rollout_id],
          timeout: 0.5,
        });
        expect(bounded.map((r) => [r.rollout_id, r.status])).toEqual([
          [rollout.rollout_id, 'succeeded'],
        ]);
        const unbounded = await store.waitForRollouts({ rollout_ids: [rollout.rollout_id] });
        expect(ids(unbounded)).toEqual([rollout.rollout_id]);
      },
    },
    {
      id: 'wait.null-timeout',
      title: 'without a timeout the wait lasts until every rollout has finished',
      timeoutMs: UNBOUNDED_WAIT_MS,
      async run({ store }) {
        const [r1, r2] = await store.enqueueManyRollouts([{ input: 1 }, { input: 2 }]);
        let settled = false;
        const waiting = store
          .waitForRollouts({ rollout_ids: [r1!.rollout_id, r2!.rollout_id], timeout: null })
          .finally(() => {
            settled = true;
          });
        await sleep(50);
        await store.updateRollout(r2!.rollout_id, { status: 'succeeded' });
        await sleep(50);
        expect(settled, 'the wait must not end while a rollout is unfinished').toBe(false);
        await store.updateRollout(r1!.rollout_id, { status: 'cancelled' });
        const done = await waiting;
        expect(done.map((r) => [r.rollout_id, r.status])).toEqual([
          [r1!.rollout_id, 'cancelled'],
          [r2!.rollout_id, 'succeeded'],
        ]);
      },
    },
    {
      id: 'wait.staggered',
      title: 'rollouts finishing at different times are all collected, in input order',
      async run({ store }) {
        const rs = await store.enqueueManyRollouts([{ input: 1 }, { input: 2 }, { input: 3 }]);
        const [r1, r2, r3] = ids(rs) as [string, string, string];
        const waiting = store.waitForRollouts({ rollout_ids: [r1, r2, r3], timeout: 0.5 });
        await sleep(20);
        await store.updateRollout(r2, { status: 'succeeded' });
        await sleep(20);
        await store.updateRollout(r1, { status: 'failed' });
        await sleep(20);
        await store.updateRollout(r3, { status: 'succeeded' });
        expect(ids(await waiting)).toEqual([r1, r2, r3]);
      },
    },
    {
      id: 'wait.partial-on-timeout',
      title: 'on timeout only the finished subset is returned',
      async run({ store }) {
        const rs = await store.enqueueManyRollouts([{ input: 1 }, { input: 2 }, { input: 3 }]);
        const waiting = store.waitForRollouts({ rollout_ids: ids(rs), timeout: 0.2 });
        await sleep(20);
        await store.updateRollout(rs[1]!.rollout_id, { status: 'succeeded' });
        expect(ids(await waiting)).toEqual([rs[1]!.rollout_id]);
      },
    },
    {
      id: 'wait.concurrent-waiters',
      title: 'several waiters on the same rollout are all released',
      async run({ store }) {
        const rollout = await store.enqueueRollout({ input: 1 });
        const waiters = Array.from({ length: 5 }, () =>
          store.waitForRollouts({ rollout_ids: [rollout.rollout_id], timeout: 0.5 }),
        );
        await sleep(20);
        await store.updateRollout(rollout.rollout_id, { status: 'succeeded' });
        for (const done of await Promise.all(waiters)) {
          expect(done.map((r) => [r.rollout_id, r.status])).toEqual([
            [rollout.rollout_id, 'succeeded'],
          ]);
        }
      },
    },
    {
      id: 'wait.unknown-ids',
      title: 'unknown rollout ids are silently dropped (no error, no waiting on them)',
      timeoutMs: UNBOUNDED_WAIT_MS,
      async run({ store }) {
        expect(
          await store.waitForRollouts({ rollout_ids: ['ro-nonexistent'], timeout: 0.1 }),
        ).toEqual([]);
        expect(
          await store.waitForRollouts({ rollout_ids: ['ro-nonexistent'], timeout: 0 }),
        ).toEqual([]);
        expect(
          await store.waitForRollouts({ rollout_ids: ['ro-nonexistent'], timeout: null }),
        ).toEqual([]);
        expect(await store.waitForRollouts({ rollout_ids: [], timeout: null })).toEqual([]);

        const rollout = await store.enqueueRollout({ input: 1 });
        const waiting = store.waitForRollouts({
          rollout_ids: ['ro-missing-1', rollout.rollout_id, 'ro-missing-2'],
          timeout: 0.5,
        });
        await sleep(20);
        await store.updateRollout(rollout.rollout_id, { status: 'succeeded' });
        expect(ids(await waiting)).toEqual([rollout.rollout_id]);
      },
    },
  ],
};
