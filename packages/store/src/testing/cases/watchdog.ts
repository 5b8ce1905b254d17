import { PromptTemplate } from '@arclight/core';
import { expect } from 'vitest';
import {
  attemptsOf,
  dequeue,
  getRollout,
  heartbeat,
  latestAttempt,
  makeSpan,
  rolloutStatus,
} from '../helpers.js';
import { createOtelSpanFactory } from '../otel.js';
import type { CaseGroup } from '../target.js';

const prompt = new PromptTemplate({ template: 'x', engine: 'f-string' });

export const watchdogCases: CaseGroup = {
  name: 'watchdog',
  cases: [
    {
      id: 'watchdog.timeout',
      title:
        'attempts older than timeout_seconds time out (even with heartbeats); retries get a fresh window',
      clock: true,
      async run({ store, clock }) {
        const rollout = await store.enqueueRollout({
          input: 1,
          config: { timeout_seconds: 10, max_attempts: 2, retry_condition: ['timeout'] },
        });
        const first = await dequeue(store, 'w1');
        clock.advance(1);
        await heartbeat(store, rollout.rollout_id, first.attempt.attempt_id);
        clock.advance(4);
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('running');

        clock.advance(6);
        const [timedOut] = await attemptsOf(store, rollout.rollout_id);
        expect(timedOut!.status).toBe('timeout');
        expect(timedOut!.end_time).toBeNull();
        const requeued = await getRollout(store, rollout.rollout_id);
        expect(requeued.status).toBe('requeuing');
        expect(requeued.end_time).toBeNull();
        const worker = await store.getWorkerById('w1');
        expect(worker?.status).toBe('unknown');
        expect(worker?.current_rollout_id).toBeNull();
        expect(worker?.current_attempt_id).toBeNull();

        const second = await dequeue(store, 'w2');
        expect(second.attempt.sequence_id).toBe(2);
        expect(second.attempt.start_time).toBe(clock.now());
        clock.advance(9);
        expect((await latestAttempt(store, rollout.rollout_id)).status).toBe('preparing');
        clock.advance(2);
        expect((await latestAttempt(store, rollout.rollout_id)).status).toBe('timeout');
        const failed = await getRollout(store, rollout.rollout_id);
        expect(failed.status).toBe('failed');
        expect(failed.end_time).toBe(clock.now());
        expect(await store.dequeueRollout()).toBeNull();
      },
    },
    {
      id: 'watchdog.timeout-from-attempt-start',
      title: 'timeout is measured from the attempt start, not the rollout start',
      clock: true,
      async run({ store, clock }) {
        const rollout = await store.enqueueRollout({ input: 1, config: { timeout_seconds: 10 } });
        clock.advance(100);
        await dequeue(store);
        clock.advance(5);
        expect((await latestAttempt(store, rollout.rollout_id)).status).toBe('preparing');
        clock.advance(6);
        expect((await latestAttempt(store, rollout.rollout_id)).status).toBe('timeout');
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('failed');
      },
    },
    {
      id: 'watchdog.unresponsive-heartbeat',
      title:
        'attempts without a span for unresponsive_seconds become unresponsive; a later span revives them',
      clock: true,
      async run({ store, clock }) {
        const rollout = await store.enqueueRollout({
          input: 1,
          config: { unresponsive_seconds: 10, max_attempts: 3, retry_condition: ['timeout'] },
        });
        const { attempt } = await dequeue(store, 'w');
        clock.advance(8);
        await heartbeat(store, rollout.rollout_id, attempt.attempt_id);
        clock.advance(7);
        expect((await latestAttempt(store, rollout.rollout_id)).status).toBe('running');
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('running');

        clock.advance(4);
        const unresponsive = await latestAttempt(store, rollout.rollout_id);
        expect(unresponsive.status).toBe('unresponsive');
        expect(unresponsive.end_time).toBeNull();
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('failed');
        expect((await store.getWorkerById('w'))?.status).toBe('unknown');

        await heartbeat(store, rollout.rollout_id, attempt.attempt_id);
        expect((await latestAttempt(store, rollout.rollout_id)).status).toBe('running');
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('failed');
      },
    },
    {
      id: 'watchdog.unresponsive-no-heartbeat',
      title:
        'an attempt that never sent a span is unresponsive unresponsive_seconds after it started',
      clock: true,
      async run({ store, clock }) {
        const rollout = await store.enqueueRollout({
          input: 1,
          config: { unresponsive_seconds: 10, max_attempts: 2, retry_condition: ['unresponsive'] },
        });
        await dequeue(store);
        clock.advance(9);
        expect((await latestAttempt(store, rollout.rollout_id)).status).toBe('preparing');
        clock.advance(2);
        expect((await latestAttempt(store, rollout.rollout_id)).status).toBe('unresponsive');
        expect(await rolloutStatus(store, rollout.rollout_id)).toBe('requeuing');
        const retry = await dequeue(store);
        expect(retry.rollout_id).toBe(rollout.rollout_id);
        expect(retry.attempt.sequence_id).toBe(2);
      },
    },
    {
      id: 'watchdog.timeout-precedence',
      title: 'when both limits are exceeded the attempt is marked timeout',
      clock: true,
      async run({ store, clock }) {
        const started = await store.startRollout({
          input: 1,
          config: { timeout_seconds: 5, unresponsive_seconds: 5 },
        });
        clock.advance(6);
        expect((await latestAttempt(store, started.rollout_id)).status).toBe('timeout');
      },
    },
    {
      id: 'watchdog.only-running',
      title:
        'the watchdog ignores queued, requeuing and finished rollouts and rollouts without limits',
      clock: true,
      async run({ store, clock }) {
        const config = { timeout_seconds: 1, unresponsive_seconds: 1 };
        const queued = await store.enqueueRollout({ input: 'queued', config });
        const succeeded = await store.startRollout({ input: 'succeeded', config });
        await store.updateAttempt(succeeded.rollout_id, 'latest', { status: 'succeeded' });
        const unlimited = await store.startRollout({ input: 'unlimited' });
        clock.advance(1000);
        expect(await rolloutStatus(store, queued.rollout_id)).toBe('queuing');
        expect(await rolloutStatus(store, succeeded.rollout_id)).toBe('succeeded');
        expect((await latestAttempt(store, succeeded.rollout_id)).status).toBe('succeeded');
        expect(await rolloutStatus(store, unlimited.rollout_id)).toBe('preparing');
        expect((await latestAttempt(store, unlimited.rollout_id)).status).toBe('preparing');
      },
    },
    {
      id: 'watchdog.debounce',
      title: 'with scanDebounceSeconds 10 the watchdog runs at most once per 10 s of clock time',
      clock: true,
      scanDebounceSeconds: 10,
      async run({ store, clock }) {
        const config = { timeout_seconds: 5 };
        const a = await store.startRollout({ input: 'a', config, worker_id: 'wa' });
        clock.advance(20);
        expect(await rolloutStatus(store, a.rollout_id)).toBe('failed');

        // A scan just ran; the next one is due 10 s later.
        const b = await store.startRollout({ input: 'b', config, worker_id: 'wb' });
        clock.advance(6);
        expect(await rolloutStatus(store, b.rollout_id)).toBe('preparing');
        expect((await store.getWorkerById('wb'))?.status).toBe('busy');
        clock.advance(3);
        expect((await latestAttempt(store, b.rollout_id)).status).toBe('preparing');
        expect((await store.queryRollouts({ status_in: ['failed'] })).total).toBe(1);
        clock.advance(2);
        expect((await latestAttempt(store, b.rollout_id)).status).toBe('timeout');
        expect(await rolloutStatus(store, b.rollout_id)).toBe('failed');
        expect((await store.getWorkerById('wb'))?.status).toBe('unknown');
      },
    },
    {
      id: 'watchdog.scan-triggers',
      title: 'the watchdog runs before each of the 16 watched methods',
      clock: true,
      async run({ store, clock }) {
        const helper = await store.startRollout({ input: 'helper' });
        const h = helper.rollout_id;
        const triggers: Array<[string, () => Promise<unknown>]> = [
          ['startRollout', () => store.startRollout({ input: 'x' })],
          ['enqueueRollout', () => store.enqueueRollout({ input: 'x' })],
          ['enqueueManyRollouts', () => store.enqueueManyRollouts([{ input: 'x' }])],
          ['dequeueRollout', () => store.dequeueRollout()],
          ['dequeueManyRollouts', () => store.dequeueManyRollouts({ limit: 1 })],
          ['startAttempt', () => store.startAttempt(h)],
          ['queryRollouts', () => store.queryRollouts()],
          ['getRolloutById', () => store.getRolloutById(h)],
          ['queryAttempts', () => store.queryAttempts(h)],
          ['getLatestAttempt', () => store.getLatestAttempt(h)],
          ['updateResources', () => store.updateResources('res', { p: prompt })],
          ['waitForRollouts', () => store.waitForRollouts({ rollout_ids: [h], timeout: 0 })],
          ['querySpans', () => store.querySpans(h)],
          ['updateRollout', () => store.updateRollout(h, { metadata: { touched: true } })],
          [
            'updateAttempt',
            () => store.updateAttempt(h, 'latest', { metadata: { touched: true } }),
          ],
          ['queryWorkers', () => store.queryWorkers()],
        ];
        for (const [method, call] of triggers) {
          const workerId = `w-${method}`;
          await store.startRollout({
            input: method,
            config: { timeout_seconds: 5 },
            worker_id: workerId,
          });
          clock.advance(10);
          await call();
          const worker = await store.getWorkerById(workerId);
          expect(worker?.status, `${method} should run the watchdog first`).toBe('unknown');
        }
      },
    },
    {
      id: 'watchdog.no-scan-methods',
      title:
        'span writes, resources reads/adds, sequence ids, statistics and worker calls do not run the watchdog',
      clock: true,
      async run({ store, clock }) {
        const otel = await createOtelSpanFactory();
        const helper = await store.startRollout({ input: 'helper' });
        const h = helper.rollout_id;
        const a = helper.attempt.attempt_id;
        const candidate = await store.startRollout({
          input: 'candidate',
          config: { timeout_seconds: 5 },
          worker_id: 'w-passive',
        });
        clock.advance(10);
        const calls: Array<[string, () => Promise<unknown>]> = [
          ['statistics', () => store.statistics()],
          ['getResourcesById', () => store.getResourcesById('missing')],
          ['getLatestResources', () => store.getLatestResources()],
          ['queryResources', () => store.queryResources()],
          ['addResources', () => store.addResources({ p: prompt })],
          ['getNextSpanSequenceId', () => store.getNextSpanSequenceId(h, a)],
          ['getManySpanSequenceIds', () => store.getManySpanSequenceIds([[h, a]])],
          [
            'addSpan',
            () => store.addSpan(makeSpan({ rollout_id: h, attempt_id: a, sequence_id: 90 })),
          ],
          [
            'addManySpans',
            () => store.addManySpans([makeSpan({ rollout_id: h, attempt_id: a, sequence_id: 91 })]),
          ],
          ['addOtelSpan', () => store.addOtelSpan(h, a, otel.span('passive'))],
          ['getWorkerById', () => store.getWorkerById('w-passive')],
          ['updateWorker', () => store.updateWorker('w-passive', { heartbeat_stats: { cpu: 1 } })],
        ];
        for (const [method, call] of calls) {
          await call();
          const worker = await store.getWorkerById('w-passive');
          expect(worker?.status, `${method} must not run the watchdog`).toBe('busy');
        }
        // The first watched call finds the overdue attempt.
        expect(await rolloutStatus(store, candidate.rollout_id)).toBe('failed');
        expect((await store.getWorkerById('w-passive'))?.status).toBe('unknown');
      },
    },
  ],
};
