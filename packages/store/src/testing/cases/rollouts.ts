import { PromptTemplate } from '@arclight/core';
import { expect } from 'vitest';
import { expectNoAttempt, getRollout } from '../helpers.js';
import type { CaseGroup } from '../target.js';

const DEFAULT_CONFIG = {
  timeout_seconds: null,
  unresponsive_seconds: null,
  max_attempts: 1,
  retry_condition: [],
};

const prompt = (template: string) => new PromptTemplate({ template, engine: 'f-string' });

export const rolloutCases: CaseGroup = {
  name: 'rollout creation',
  cases: [
    {
      id: 'rollout.enqueue-defaults',
      title: 'enqueueRollout creates a queuing rollout with default fields and no attempt',
      async run({ store }) {
        const rollout = await store.enqueueRollout({ input: { q: 'hello' } });
        expect(rollout.rollout_id).toMatch(/^ro-/);
        expect(rollout.status).toBe('queuing');
        expect(rollout.input).toEqual({ q: 'hello' });
        expect(rollout.mode).toBeNull();
        expect(rollout.resources_id).toBeNull();
        expect(rollout.end_time).toBeNull();
        expect(rollout.metadata).toEqual({});
        expect(rollout.config).toEqual(DEFAULT_CONFIG);
        expect(typeof rollout.start_time).toBe('number');

        const stored = await getRollout(store, rollout.rollout_id);
        expectNoAttempt(stored);
        expect(stored).toEqual(rollout);
        expect((await store.queryAttempts(rollout.rollout_id)).items).toEqual([]);
      },
    },
    {
      id: 'rollout.enqueue-fields',
      title:
        'enqueueRollout stores mode, resources_id, metadata and a partial config filled with defaults',
      async run({ store }) {
        const metadata = { key: 'value', number: 42 };
        const rollout = await store.enqueueRollout({
          input: { input: 'test_data' },
          mode: 'train',
          resources_id: 'res-123',
          metadata,
          config: { timeout_seconds: 12, max_attempts: 3, retry_condition: ['timeout'] },
        });
        expect(rollout.mode).toBe('train');
        expect(rollout.resources_id).toBe('res-123');
        expect(rollout.metadata).toEqual(metadata);
        expect(rollout.config).toEqual({
          timeout_seconds: 12,
          unresponsive_seconds: null,
          max_attempts: 3,
          retry_condition: ['timeout'],
        });
        const stored = await getRollout(store, rollout.rollout_id);
        expect(stored.config).toEqual(rollout.config);
        expect(stored.metadata).toEqual(metadata);
        expect(stored.mode).toBe('train');
        expect(stored.resources_id).toBe('res-123');
      },
    },
    {
      id: 'rollout.start-creates-attempt',
      title:
        'startRollout creates a preparing rollout and attempt #1 with the same start_time, bypassing the queue',
      async run({ store }) {
        const started = await store.startRollout({
          input: { payload: 'value' },
          mode: 'val',
          resources_id: 'res-add',
        });
        expect(started.status).toBe('preparing');
        expect(started.rollout_id).toMatch(/^ro-/);
        expect(started.mode).toBe('val');
        expect(started.resources_id).toBe('res-add');
        expect(started.metadata).toEqual({});
        expect(started.config).toEqual(DEFAULT_CONFIG);
        expect(started.attempt.attempt_id).toMatch(/^at-/);
        expect(started.attempt.rollout_id).toBe(started.rollout_id);
        expect(started.attempt.sequence_id).toBe(1);
        expect(started.attempt.status).toBe('preparing');
        expect(started.attempt.start_time).toBe(started.start_time);
        expect(started.attempt.end_time).toBeNull();
        expect(started.attempt.worker_id).toBeNull();
        expect(started.attempt.last_heartbeat_time).toBeNull();

        const preparing = await store.queryRollouts({ status_in: ['preparing'] });
        expect(preparing.items.map((r) => r.rollout_id)).toEqual([started.rollout_id]);
        expect(preparing.items[0]!.resources_id).toBe('res-add');
        const attempts = await store.queryAttempts(started.rollout_id);
        expect(attempts.items.map((a) => a.attempt_id)).toEqual([started.attempt.attempt_id]);
        expect((await store.getLatestAttempt(started.rollout_id))?.attempt_id).toBe(
          started.attempt.attempt_id,
        );
        // A started rollout is not in the queue.
        expect(await store.dequeueRollout()).toBeNull();
      },
    },
    {
      id: 'rollout.start-config',
      title: 'startRollout keeps a custom config and metadata',
      async run({ store }) {
        const started = await store.startRollout({
          input: 1,
          config: { unresponsive_seconds: 5, max_attempts: 2, retry_condition: ['unresponsive'] },
          metadata: { tag: 'x' },
        });
        const expected = {
          timeout_seconds: null,
          unresponsive_seconds: 5,
          max_attempts: 2,
          retry_condition: ['unresponsive'],
        };
        expect(started.config).toEqual(expected);
        const stored = await getRollout(store, started.rollout_id);
        expect(stored.config).toEqual(expected);
        expect(stored.metadata).toEqual({ tag: 'x' });
      },
    },
    {
      id: 'rollout.start-timestamps',
      title: 'startRollout and enqueueRollout stamp start_time from the clock',
      clock: true,
      async run({ store, clock }) {
        const queued = await store.enqueueRollout({ input: 0 });
        expect(queued.start_time).toBe(clock.now());
        clock.advance(7.5);
        const started = await store.startRollout({ input: 1 });
        expect(started.start_time).toBe(clock.now());
        expect(started.attempt.start_time).toBe(clock.now());
        clock.advance(3);
        const dequeued = await store.dequeueRollout();
        expect(dequeued?.rollout_id).toBe(queued.rollout_id);
        expect(dequeued?.start_time).toBe(queued.start_time);
        expect(dequeued?.attempt.start_time).toBe(clock.now());
      },
    },
    {
      id: 'rollout.id-formats',
      title:
        'ids are "ro-" + 12 hex (rollouts), "at-" + 8 hex (attempts), "rs-" + 12 hex (resources), all unique',
      async run({ store }) {
        const rolloutIds = new Set<string>();
        const attemptIds = new Set<string>();
        for (let i = 0; i < 20; i++) {
          const started = await store.startRollout({ input: i });
          expect(started.rollout_id).toMatch(/^ro-[0-9a-f]{12}$/);
          expect(started.attempt.attempt_id).toMatch(/^at-[0-9a-f]{8}$/);
          rolloutIds.add(started.rollout_id);
          attemptIds.add(started.attempt.attempt_id);
        }
        expect(rolloutIds.size).toBe(20);
        expect(attemptIds.size).toBe(20);
        const resources = await store.addResources({ p: prompt('x') });
        expect(resources.resources_id).toMatch(/^rs-[0-9a-f]{12}$/);
      },
    },
    {
      id: 'rollout.inherits-latest-resources',
      title: 'rollouts without resources_id get the latest resources id; explicit ids are kept',
      async run({ store, clock }) {
        const none = await store.enqueueRollout({ input: 0 });
        expect(none.resources_id).toBeNull();

        await store.updateResources('current', { greeting: prompt('Hello {name}!') });
        const r1 = await store.enqueueRollout({ input: { id: 1 } });
        expect(r1.resources_id).toBe('current');
        const r2 = await store.enqueueRollout({ input: { id: 2 }, resources_id: 'override' });
        expect(r2.resources_id).toBe('override');
        const started = await store.startRollout({ input: { id: 3 } });
        expect(started.resources_id).toBe('current');
        const many = await store.enqueueManyRollouts([
          { input: 4 },
          { input: 5, resources_id: 'explicit' },
        ]);
        expect(many.map((r) => r.resources_id)).toEqual(['current', 'explicit']);

        clock.advance(1);
        await store.updateResources('new', { greeting: prompt('Hi {name}!') });
        const r3 = await store.enqueueRollout({ input: { id: 6 } });
        expect(r3.resources_id).toBe('new');
        expect((await getRollout(store, r1.rollout_id)).resources_id).toBe('current');
      },
    },
    {
      id: 'rollout.json-roundtrip',
      title: 'arbitrary JSON inputs and metadata round-trip unchanged',
      async run({ store }) {
        const inputs: unknown[] = [
          {
            nested: {
              list: [1, 2.5, -3, { deep: [true, false, null] }],
              text: 'ünïcødé ✓ "quoted"',
            },
          },
          'a plain string',
          42,
          [1, 'two', { three: 3 }],
          null,
          { empty: {}, emptyList: [], big: 1e21, small: 1e-7 },
        ];
        const created = [];
        for (const input of inputs) {
          created.push(
            await store.enqueueRollout({ input, metadata: { input, tags: ['a', 'b'] } }),
          );
        }
        for (const [i, rollout] of created.entries()) {
          const stored = await getRollout(store, rollout.rollout_id);
          expect(stored.input).toEqual(inputs[i]);
          expect(stored.metadata).toEqual({ input: inputs[i], tags: ['a', 'b'] });
        }
        const queried = await store.queryRollouts();
        expect(queried.items.map((r) => r.input)).toEqual(inputs);
      },
    },
    {
      id: 'rollout.isolated-copies',
      title: 'mutating arguments or returned objects does not change stored rollouts',
      async run({ store }) {
        const metadata: Record<string, unknown> = { a: 1 };
        const config = { max_attempts: 2, retry_condition: ['failed' as const] };
        const rollout = await store.enqueueRollout({ input: { v: 1 }, metadata, config });
        metadata.a = 2;
        config.retry_condition.push('timeout' as never);
        (rollout.metadata as Record<string, unknown>).a = 3;
        rollout.status = 'succeeded';
        rollout.config.max_attempts = 9;

        const stored = await getRollout(store, rollout.rollout_id);
        expect(stored.metadata).toEqual({ a: 1 });
        expect(stored.status).toBe('queuing');
        expect(stored.config.max_attempts).toBe(2);
        expect(stored.config.retry_condition).toEqual(['failed']);

        (stored.metadata as Record<string, unknown>).a = 4;
        expect((await getRollout(store, rollout.rollout_id)).metadata).toEqual({ a: 1 });
      },
    },
  ],
};
