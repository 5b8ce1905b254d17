import { expect } from 'vitest';
import { expectNotFound, getRollout } from '../helpers.js';
import type { CaseGroup } from '../target.js';

export const updateCases: CaseGroup = {
  name: 'updateRollout',
  cases: [
    {
      id: 'update-rollout.fields',
      title: 'updateRollout sets status, mode, resources_id, config and metadata at once',
      async run({ store }) {
        const rollout = await store.enqueueRollout({ input: { test: 'data' } });
        const config = {
          timeout_seconds: 60,
          unresponsive_seconds: 30,
          max_attempts: 3,
          retry_condition: ['timeout' as const, 'unresponsive' as const],
        };
        const returned = await store.updateRollout(rollout.rollout_id, {
          status: 'running',
          mode: 'train',
          resources_id: 'new-resources',
          config,
          metadata: { custom_field: 'custom_value' },
        });
        const stored = (await store.queryRollouts()).items[0]!;
        for (const updated of [returned, stored]) {
          expect(updated.rollout_id).toBe(rollout.rollout_id);
          expect(updated.status).toBe('running');
          expect(updated.mode).toBe('train');
          expect(updated.resources_id).toBe('new-resources');
          expect(updated.config).toEqual(config);
          expect(updated.metadata).toEqual({ custom_field: 'custom_value' });
          expect(updated.input).toEqual({ test: 'data' });
          expect(updated.start_time).toBe(rollout.start_time);
        }
      },
    },
    {
      id: 'update-rollout.unset-vs-null',
      title: 'updateRollout keeps omitted fields and clears fields given as null',
      async run({ store }) {
        const rollout = await store.enqueueRollout({
          input: { v: 1 },
          mode: 'train',
          resources_id: 'res-1',
          metadata: { a: 1 },
        });
        const r = rollout.rollout_id;
        const kept = await store.updateRollout(r, { status: 'running' });
        expect(kept).toMatchObject({
          input: { v: 1 },
          mode: 'train',
          resources_id: 'res-1',
          metadata: { a: 1 },
        });
        const kept2 = await store.updateRollout(r, { metadata: undefined, mode: undefined });
        expect(kept2).toMatchObject({ mode: 'train', metadata: { a: 1 }, status: 'running' });

        const cleared = await store.updateRollout(r, {
          metadata: null,
          mode: null,
          resources_id: null,
        });
        expect(cleared.metadata).toBeNull();
        expect(cleared.mode).toBeNull();
        expect(cleared.resources_id).toBeNull();
        expect(cleared.status).toBe('running');
        expect(cleared.input).toEqual({ v: 1 });
        const stored = await getRollout(store, r);
        expect([stored.metadata, stored.mode, stored.resources_id]).toEqual([null, null, null]);

        const replaced = await store.updateRollout(r, { input: { v: 2 }, metadata: { b: 2 } });
        expect(replaced.input).toEqual({ v: 2 });
        expect(replaced.metadata).toEqual({ b: 2 });
        expect((await getRollout(store, r)).input).toEqual({ v: 2 });
      },
    },
    {
      id: 'update-rollout.config-per-rollout',
      title: 'each rollout keeps its own config',
      async run({ store }) {
        const first = await store.enqueueRollout({ input: 1 });
        await store.updateRollout(first.rollout_id, {
          config: {
            timeout_seconds: 30,
            unresponsive_seconds: 15,
            max_attempts: 2,
            retry_condition: ['timeout', 'unresponsive', 'failed'],
          },
        });
        const second = await store.enqueueRollout({ input: 2 });
        await store.updateRollout(second.rollout_id, {
          config: {
            timeout_seconds: 120,
            unresponsive_seconds: null,
            max_attempts: 5,
            retry_condition: ['timeout'],
          },
        });
        const stored1 = await getRollout(store, first.rollout_id);
        expect(stored1.config.timeout_seconds).toBe(30);
        expect(stored1.config.max_attempts).toBe(2);
        expect(stored1.config.retry_condition).toContain('failed');
        const stored2 = await getRollout(store, second.rollout_id);
        expect(stored2.config).toEqual({
          timeout_seconds: 120,
          unresponsive_seconds: null,
          max_attempts: 5,
          retry_condition: ['timeout'],
        });
      },
    },
    {
      id: 'update-rollout.finished-end-time',
      title: 'updateRollout to succeeded/failed/cancelled stamps end_time with the current time',
      clock: true,
      async run({ store, clock }) {
        for (const status of ['succeeded', 'failed', 'cancelled'] as const) {
          const rollout = await store.enqueueRollout({ input: status });
          expect(rollout.end_time).toBeNull();
          clock.advance(3);
          const updated = await store.updateRollout(rollout.rollout_id, { status });
          expect(updated.end_time).toBe(clock.now());
          expect(updated.end_time!).toBeGreaterThan(updated.start_time);
        }
      },
    },
    {
      id: 'update-rollout.unknown',
      title: 'updateRollout of an unknown rollout fails naming it',
      async run(ctx) {
        await expectNotFound(
          ctx,
          ctx.store.updateRollout('ro-nonexistent', { status: 'failed' }),
          'ro-nonexistent',
        );
        expect((await ctx.store.statistics()).total_rollouts).toBe(0);
      },
    },
  ],
};
