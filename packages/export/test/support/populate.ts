import type { LightningStore } from '@arclight/store';
import { type FixtureRollout, spansOf } from './fixtures.js';

/**
 * Writes fixture rollouts into a store as a worker would: start the rollout, add the attempt's spans, finish
 * the attempt (rollouts whose fixture status is unfinished are left running). Returns fixture id → store id.
 */
export async function populate(
  store: LightningStore,
  fixtures: FixtureRollout[],
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const fixture of fixtures) {
    const started = await store.startRollout({
      input: fixture.input,
      mode: fixture.mode === undefined ? 'train' : fixture.mode,
      metadata: fixture.metadata ?? null,
    });
    const rollout_id = started.rollout_id;
    const attempt_id = started.attempt.attempt_id;
    ids.set(fixture.rollout_id, rollout_id);
    const spans = spansOf({ ...fixture, rollout_id, attempt_id, start_time: started.start_time });
    if (spans.length > 0) await store.addManySpans(spans);
    const status = fixture.status ?? 'succeeded';
    if (status === 'succeeded' || status === 'failed') {
      await store.updateAttempt(rollout_id, attempt_id, { status });
    } else if (status !== 'running') {
      await store.updateRollout(rollout_id, { status });
    }
  }
  return ids;
}
