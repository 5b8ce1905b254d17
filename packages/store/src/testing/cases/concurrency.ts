import type { AttemptedRollout, Span } from '@arclight/core';
import { LLM } from '@arclight/core';
import { expect } from 'vitest';
import { makeSpan } from '../helpers.js';
import { createOtelSpanFactory } from '../otel.js';
import type { CaseGroup } from '../target.js';

const CONCURRENCY_TIMEOUT_MS = 60_000;

export const concurrencyCases: CaseGroup = {
  name: 'concurrency',
  cases: [
    {
      id: 'concurrency.dequeue',
      title:
        '200 concurrent dequeuers over 150 queued rollouts: each rollout goes to exactly one worker',
      timeoutMs: CONCURRENCY_TIMEOUT_MS,
      async run({ store }) {
        await store.enqueueManyRollouts(Array.from({ length: 150 }, (_, i) => ({ input: { i } })));
        const results = await Promise.all(
          Array.from({ length: 200 }, (_, i) => store.dequeueRollout({ worker_id: `worker-${i}` })),
        );
        const got = results.filter((r) => r !== null);
        expect(got).toHaveLength(150);
        expect(new Set(got.map((r) => r.rollout_id)).size).toBe(150);
        expect(new Set(got.map((r) => r.attempt.attempt_id)).size).toBe(150);
        expect(got.every((r) => r.attempt.sequence_id === 1 && r.status === 'preparing')).toBe(
          true,
        );
        results.forEach((r, i) => {
          if (r) expect(r.attempt.worker_id).toBe(`worker-${i}`);
        });
        expect((await store.statistics()).total_attempts).toBe(150);
        expect((await store.queryWorkers({ status_in: ['busy'] })).total).toBe(150);
        expect((await store.queryWorkers({ status_in: ['idle'] })).total).toBe(50);
        expect((await store.queryRollouts({ status_in: ['queuing'] })).total).toBe(0);
        expect(await store.dequeueRollout()).toBeNull();
      },
    },
    {
      id: 'concurrency.spans',
      title:
        '50 concurrent writers adding 40 spans each: all 2000 stored with distinct sequence ids per rollout',
      timeoutMs: CONCURRENCY_TIMEOUT_MS,
      async run({ store }) {
        const rollouts: AttemptedRollout[] = [];
        for (let i = 0; i < 5; i++) rollouts.push(await store.startRollout({ input: i }));
        let seed = 0x100000;
        const writer = async (w: number): Promise<void> => {
          const { rollout_id, attempt } = rollouts[w % rollouts.length]!;
          const key = (sequence_id: number) => ({
            rollout_id,
            attempt_id: attempt.attempt_id,
            sequence_id,
          });
          // 10 single spans, then 3 batches of 10.
          for (let i = 0; i < 10; i++) {
            const seq = await store.getNextSpanSequenceId(rollout_id, attempt.attempt_id);
            expect(await store.addSpan(makeSpan(key(seq), { seed: ++seed }))).not.toBeNull();
          }
          for (let b = 0; b < 3; b++) {
            const seqs = await store.getManySpanSequenceIds(
              Array.from(
                { length: 10 },
                () => [rollout_id, attempt.attempt_id] as [string, string],
              ),
            );
            const batch: Span[] = seqs.map((seq) => makeSpan(key(seq), { seed: ++seed }));
            expect(await store.addManySpans(batch)).toHaveLength(10);
          }
        };
        await Promise.all(Array.from({ length: 50 }, (_, w) => writer(w)));

        let total = 0;
        for (const rollout of rollouts) {
          const spans = await store.querySpans(rollout.rollout_id);
          expect(spans.total).toBe(400);
          const seqs = spans.items.map((s) => s.sequence_id);
          expect(new Set(seqs).size).toBe(400);
          expect(seqs).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
          total += spans.total;
        }
        expect(total).toBe(2000);
        expect((await store.statistics()).total_spans).toBe(2000);
      },
    },
    {
      id: 'concurrency.otel-spans',
      title: '30 concurrent addOtelSpan calls get sequence ids 1..30',
      timeoutMs: CONCURRENCY_TIMEOUT_MS,
      async run({ store }) {
        const otel = await createOtelSpanFactory();
        const started = await store.startRollout({ input: 1 });
        const spans = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            store.addOtelSpan(started.rollout_id, started.attempt.attempt_id, otel.span(`op-${i}`)),
          ),
        );
        const seqs = spans.map((s) => s!.sequence_id).sort((a, b) => a - b);
        expect(seqs).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      },
    },
    {
      id: 'concurrency.enqueue',
      title: '50 concurrent enqueues create 50 distinct rollouts',
      timeoutMs: CONCURRENCY_TIMEOUT_MS,
      async run({ store }) {
        const rollouts = await Promise.all(
          Array.from({ length: 50 }, (_, i) => store.enqueueRollout({ input: { i } })),
        );
        expect(new Set(rollouts.map((r) => r.rollout_id)).size).toBe(50);
        expect((await store.queryRollouts()).total).toBe(50);
        expect(await store.dequeueManyRollouts({ limit: 100 })).toHaveLength(50);
      },
    },
    {
      id: 'concurrency.resources',
      title: '50 concurrent updateResources calls are all stored',
      timeoutMs: CONCURRENCY_TIMEOUT_MS,
      async run({ store }) {
        await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            store.updateResources(`v${i}`, {
              llm: new LLM({ endpoint: `http://localhost:808${i % 10}`, model: `model-v${i}` }),
            }),
          ),
        );
        expect((await store.getLatestResources())?.resources_id).toMatch(/^v\d+$/);
        for (let i = 0; i < 50; i++) {
          const stored = await store.getResourcesById(`v${i}`);
          expect(stored?.version).toBe(1);
          expect(stored?.resources.llm).toBeInstanceOf(LLM);
          expect((stored!.resources.llm as LLM).model).toBe(`model-v${i}`);
        }
      },
    },
  ],
};
