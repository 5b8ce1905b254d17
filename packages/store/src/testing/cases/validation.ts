import { expect } from 'vitest';
import type { PageParams } from '../../lightning-store.js';
import { expectInvalid, getRollout, latestAttempt } from '../helpers.js';
import type { CaseGroup } from '../target.js';

type Loose = Record<string, unknown>;

export const validationCases: CaseGroup = {
  name: 'validation',
  cases: [
    {
      id: 'validation.pagination',
      title:
        'every query rejects limit 0 or < -1, negative offsets, unknown sort_by and bad sort_order/filter_logic',
      async run(ctx) {
        const { store } = ctx;
        const started = await store.startRollout({ input: 1 });
        const r = started.rollout_id;
        const queries: Array<[string, boolean, (params: Loose) => Promise<unknown>]> = [
          ['queryRollouts', true, (params) => store.queryRollouts(params as PageParams)],
          ['queryAttempts', false, (params) => store.queryAttempts(r, params as PageParams)],
          ['queryResources', false, (params) => store.queryResources(params as PageParams)],
          ['querySpans', true, (params) => store.querySpans(r, params as PageParams)],
          ['queryWorkers', true, (params) => store.queryWorkers(params as PageParams)],
        ];
        for (const [method, hasFilterLogic, query] of queries) {
          const bad: Array<[Loose, string]> = [
            [{ limit: 0 }, 'limit'],
            [{ limit: -2 }, 'limit'],
            [{ offset: -1 }, 'offset'],
            [{ sort_by: 'no_such_field' }, 'sort_by'],
            [{ sort_order: 'up' }, 'sort_order'],
          ];
          if (hasFilterLogic) bad.push([{ filter_logic: 'xor' }, 'filter_logic']);
          for (const [params, field] of bad) {
            try {
              await expectInvalid(ctx, query(params), field);
            } catch (failure) {
              throw new Error(
                `${method}(${JSON.stringify(params)}): ${(failure as Error).message}`,
              );
            }
          }
          // The boundary values are fine.
          await query({ limit: -1, offset: 0 });
          await query({ limit: 1, offset: 5 });
        }
      },
    },
    {
      id: 'validation.update-attempt-status',
      title: 'updateAttempt with an unknown status fails and changes nothing',
      async run(ctx) {
        const { store } = ctx;
        const started = await store.startRollout({ input: 1 });
        await expectInvalid(
          ctx,
          store.updateAttempt(started.rollout_id, started.attempt.attempt_id, {
            status: 'bogus' as never,
            metadata: { applied: true },
            worker_id: 'w-invalid',
          }),
          'status',
        );
        const attempt = await latestAttempt(store, started.rollout_id);
        expect(attempt.status).toBe('preparing');
        expect(attempt.metadata).toEqual(started.attempt.metadata);
        expect(attempt.worker_id).toBeNull();
        expect((await getRollout(store, started.rollout_id)).status).toBe('preparing');
        expect(await store.getWorkerById('w-invalid')).toBeNull();
      },
    },
    {
      id: 'validation.update-rollout-status',
      title: 'updateRollout with an unknown status fails and changes nothing',
      async run(ctx) {
        const { store } = ctx;
        const rollout = await store.enqueueRollout({ input: 1, metadata: { a: 1 } });
        await expectInvalid(
          ctx,
          store.updateRollout(rollout.rollout_id, { status: 'bogus' as never, metadata: { a: 2 } }),
          'status',
        );
        const stored = await getRollout(store, rollout.rollout_id);
        expect(stored.status).toBe('queuing');
        expect(stored.metadata).toEqual({ a: 1 });
        expect(stored.end_time).toBeNull();
      },
    },
    {
      id: 'validation.rollout-config',
      title:
        'a config with max_attempts < 1 or an unknown retry status is rejected and nothing is created',
      async run(ctx) {
        const { store } = ctx;
        await expectInvalid(
          ctx,
          store.enqueueRollout({ input: 1, config: { max_attempts: 0 } }),
          'max_attempts',
        );
        await expectInvalid(
          ctx,
          store.startRollout({ input: 1, config: { max_attempts: 0 } }),
          'max_attempts',
        );
        await expectInvalid(
          ctx,
          store.enqueueRollout({ input: 1, config: { retry_condition: ['bogus' as never] } }),
          'retry_condition',
        );
        await expectInvalid(
          ctx,
          store.enqueueManyRollouts([
            { input: 'ok' },
            { input: 'bad', config: { max_attempts: 0 } },
          ]),
          'max_attempts',
        );
        const stats = await store.statistics();
        expect([stats.total_rollouts, stats.total_attempts]).toEqual([0, 0]);
        expect(await store.dequeueRollout()).toBeNull();
      },
    },
  ],
};
