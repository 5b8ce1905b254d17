import { LLM } from '@arclight/core';
import { expect } from 'vitest';
import { heartbeat } from '../helpers.js';
import type { CaseGroup } from '../target.js';

export const storeCases: CaseGroup = {
  name: 'store',
  cases: [
    {
      id: 'store.capabilities',
      title: 'capabilities has the four boolean flags',
      async run({ store }) {
        const caps = store.capabilities;
        for (const key of ['thread_safe', 'async_safe', 'zero_copy', 'otlp_traces'] as const) {
          expect(typeof caps[key], key).toBe('boolean');
        }
      },
    },
    {
      id: 'store.statistics',
      title: 'statistics counts rollouts, attempts, spans, resources and workers',
      async run({ store }) {
        const initial = await store.statistics();
        expect(typeof initial.name).toBe('string');
        expect(initial.name.length).toBeGreaterThan(0);
        expect(initial).toMatchObject({
          total_rollouts: 0,
          total_attempts: 0,
          total_spans: 0,
          total_resources: 0,
          total_workers: 0,
        });
        expect(initial.uptime).toBeGreaterThanOrEqual(0);
        expect(initial.total_span_bytes).toBeGreaterThanOrEqual(0);

        const started = await store.startRollout({ input: { origin: 'stats' } });
        await heartbeat(store, started.rollout_id, started.attempt.attempt_id);
        await store.addResources({
          stat_llm: new LLM({ endpoint: 'http://localhost:8000/v1', model: 'stats-model' }),
        });
        await store.updateWorker('stats-worker', { heartbeat_stats: { cpu: 0.5 } });
        await store.enqueueManyRollouts([{ input: 1 }, { input: 2 }]);
        await store.dequeueRollout();
        await store.startAttempt(started.rollout_id);

        const updated = await store.statistics();
        expect(updated).toMatchObject({
          name: initial.name,
          total_rollouts: 3,
          total_attempts: 3,
          total_spans: 1,
          total_resources: 1,
          total_workers: 1,
        });
        expect(updated.total_span_bytes).toBeGreaterThanOrEqual(initial.total_span_bytes);
        expect(updated.uptime).toBeGreaterThanOrEqual(initial.uptime);
      },
    },
    {
      id: 'store.statistics-uptime',
      title: 'statistics uptime follows the clock',
      clock: true,
      async run({ store, clock }) {
        const before = (await store.statistics()).uptime;
        clock.advance(10);
        expect((await store.statistics()).uptime).toBe(before + 10);
      },
    },
  ],
};
