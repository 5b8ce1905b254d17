import { PromptTemplate, type ResourcesUpdate, type Rollout } from '@arclight/core';
import { describe, expect, it } from 'vitest';
import { computeProgress, niceBucket } from '../app/model/progress.js';
import { bestVersion, versionViews } from '../app/model/resources.js';

const rollout = (id: string, fields: Partial<Rollout>): Rollout => ({
  rollout_id: id,
  input: {},
  start_time: 1000,
  end_time: null,
  mode: 'train',
  resources_id: 'v0',
  status: 'succeeded',
  config: {
    timeout_seconds: null,
    unresponsive_seconds: null,
    max_attempts: 1,
    retry_condition: [],
  },
  metadata: null,
  ...fields,
});

const rollouts: Rollout[] = [
  rollout('a', { end_time: 1010, resources_id: 'v0', mode: 'val' }),
  rollout('b', { end_time: 1020, resources_id: 'v0', mode: 'val' }),
  rollout('c', { end_time: 1030, resources_id: 'v1', mode: 'val' }),
  rollout('d', { end_time: 1040, resources_id: 'v1', mode: 'train' }),
  rollout('e', { end_time: 1050, resources_id: 'v1', status: 'failed' }),
  rollout('f', { resources_id: 'v1', status: 'running' }),
];
const rewards = new Map<string, number | null>([
  ['a', 0],
  ['b', 1],
  ['c', 1],
  ['d', 0],
  ['e', null],
]);

describe('computeProgress', () => {
  const p = computeProgress(rollouts, rewards, 2);

  it('totals: finished, failed, running, failure rate, throughput', () => {
    expect(p.totals).toMatchObject({
      rollouts: 6,
      finished: 5,
      failed: 1,
      running: 1,
      queued: 0,
      failure_rate: 0.2,
    });
    expect(p.totals.throughput).toBeCloseTo((5 * 60) / 50);
    expect(p.totals.reward).toMatchObject({ count: 4, mean: 0.5 });
  });

  it('reward points by end time and the rolling mean of the last N', () => {
    expect(p.points.map((x) => x.rollout_id)).toEqual(['a', 'b', 'c', 'd']);
    expect(p.rolling.map((x) => x.mean)).toEqual([0, 0.5, 1, 0.5]);
  });

  it('per version: mean, spread, count, and the validation-only figures', () => {
    const v0 = p.versions.find((v) => v.resources_id === 'v0')!;
    const v1 = p.versions.find((v) => v.resources_id === 'v1')!;
    expect(v0).toMatchObject({ count: 2, mean: 0.5, std: 0.5, min: 0, max: 1 });
    expect(v1).toMatchObject({ count: 2, mean: 0.5 });
    expect(v1.val).toMatchObject({ count: 1, mean: 1 });
  });

  it('time buckets add up to the finished rollouts', () => {
    expect(p.buckets.reduce((n, b) => n + b.finished, 0)).toBe(5);
    expect(p.buckets.reduce((n, b) => n + b.failed, 0)).toBe(1);
    expect(niceBucket(0.4)).toBe(1);
    expect(niceBucket(7)).toBe(10);
    expect(niceBucket(100_000)).toBe(172_800);
  });

  it('resources: the best version is ranked on validation rewards', () => {
    const updates: ResourcesUpdate[] = ['v0', 'v1'].map((id, i) => ({
      resources_id: id,
      create_time: 900 + i,
      update_time: 900 + i,
      version: 1,
      resources: { prompt_template: new PromptTemplate({ template: `t${i}`, engine: 'f-string' }) },
    }));
    const views = versionViews(updates, p.versions);
    expect(views.map((v) => [v.resources_id, v.score, v.score_basis])).toEqual([
      ['v0', 0.5, 'val'],
      ['v1', 1, 'val'],
    ]);
    expect(bestVersion(views)?.resources_id).toBe('v1');
    expect(views[0]!.templates).toEqual({ prompt_template: 't0' });
  });
});
