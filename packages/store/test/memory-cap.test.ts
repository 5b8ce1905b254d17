import { describe, expect, it } from 'vitest';
import { InMemoryLightningStore, SpansEvictedError, StoreFullError } from '../src/index.js';
import { span } from './fixtures/records.js';

/** A store capped at `maxSpans`, with `n` rollouts holding `perRollout` spans each. */
async function filled(maxSpans: number, n: number, perRollout: number) {
  const store = new InMemoryLightningStore({ maxSpans });
  const rollouts = [];
  for (let r = 0; r < n; r++) {
    const rollout = await store.startRollout({ input: r });
    await store.addManySpans(
      Array.from({ length: perRollout }, (_, i) =>
        span(rollout.rollout_id, rollout.attempt.attempt_id, `s${i}`, { sequence_id: i + 1 }),
      ),
    );
    rollouts.push(rollout);
  }
  return { store, rollouts };
}

const addSpans = (
  store: InMemoryLightningStore,
  rollout: { rollout_id: string; attempt: { attempt_id: string } },
  from: number,
  count: number,
) =>
  store.addManySpans(
    Array.from({ length: count }, (_, i) =>
      span(rollout.rollout_id, rollout.attempt.attempt_id, `s${from + i}`, {
        sequence_id: from + i + 1,
      }),
    ),
  );

describe('InMemoryLightningStore span cap', () => {
  it('evicts spans of finished rollouts, oldest first, keeping rollout and attempt records', async () => {
    const { store, rollouts } = await filled(100, 4, 25); // exactly full
    const [r0, r1, r2, r3] = rollouts as [
      (typeof rollouts)[0],
      (typeof rollouts)[0],
      (typeof rollouts)[0],
      (typeof rollouts)[0],
    ];
    await store.updateRollout(r1.rollout_id, { status: 'succeeded' });
    await store.updateRollout(r2.rollout_id, { status: 'failed' });
    // r0 is still running: only r1 (oldest finished) needs to go to make room (and reach 90%).
    await addSpans(store, r3, 25, 10);
    expect((await store.querySpans(r0.rollout_id)).total).toBe(25);
    await expect(store.querySpans(r1.rollout_id)).rejects.toBeInstanceOf(SpansEvictedError);
    await expect(store.querySpans(r1.rollout_id)).rejects.toMatchObject({ status: 410 });
    expect((await store.querySpans(r2.rollout_id)).total).toBe(25);
    expect((await store.querySpans(r3.rollout_id)).total).toBe(35);
    // Records survive eviction.
    expect((await store.getRolloutById(r1.rollout_id))?.status).toBe('succeeded');
    expect((await store.queryAttempts(r1.rollout_id)).total).toBe(1);
    const stats = await store.statistics();
    expect(stats).toMatchObject({
      total_spans: 85,
      max_spans: 100,
      evicted_spans: 25,
      evicted_rollouts: 1,
    });
  });

  it('refuses with 507 when unfinished rollouts fill the cap, and accepts again once one finishes', async () => {
    const { store, rollouts } = await filled(50, 2, 25);
    const [r0, r1] = rollouts as [(typeof rollouts)[0], (typeof rollouts)[0]];
    const full = addSpans(store, r1, 25, 1);
    await expect(full).rejects.toBeInstanceOf(StoreFullError);
    await expect(addSpans(store, r1, 25, 1)).rejects.toMatchObject({ status: 507 });
    expect((await store.statistics()).total_spans).toBe(50);
    await store.updateRollout(r0.rollout_id, { status: 'succeeded' });
    await addSpans(store, r1, 25, 1);
    expect((await store.querySpans(r1.rollout_id)).total).toBe(26);
    await expect(store.querySpans(r0.rollout_id)).rejects.toBeInstanceOf(SpansEvictedError);
  });

  it('a byte cap bounds the estimated span bytes and reports upstream statistics fields', async () => {
    const store = new InMemoryLightningStore({ maxSpanBytes: 20_000 });
    const stats0 = await store.statistics();
    expect(stats0).toMatchObject({
      memory_capacity_bytes: 20_000,
      eviction_threshold_bytes: 20_000,
      safe_threshold_bytes: 18_000,
    });
    for (let r = 0; r < 50; r++) {
      const rollout = await store.startRollout({ input: r });
      await addSpans(store, rollout, 0, 5);
      await store.updateRollout(rollout.rollout_id, { status: 'succeeded' });
      const stats = await store.statistics();
      expect(stats.total_span_bytes).toBeLessThanOrEqual(20_000);
    }
    const stats = await store.statistics();
    expect(stats.evicted_spans).toBeGreaterThan(0);
    expect(stats.total_rollouts).toBe(50);
  });

  it('an uncapped store reports null capacity, and bad caps are refused', async () => {
    expect(await new InMemoryLightningStore().statistics()).toMatchObject({
      memory_capacity_bytes: null,
    });
    expect(() => new InMemoryLightningStore({ maxSpans: 0 })).toThrow(
      'maxSpans must be a positive integer',
    );
    expect(() => new InMemoryLightningStore({ maxSpanBytes: -1 })).toThrow(
      'maxSpanBytes must be a positive integer',
    );
  });
});
