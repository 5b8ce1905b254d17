import type { Rollout } from '@arclight/core';
import { type Summary, summarize } from './stats.js';

/** The reward of one finished rollout (the final reward of its latest attempt; null when it has none). */
export interface RolloutReward {
  rollout_id: string;
  reward: number | null;
}

export const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

export interface VersionStats extends Summary {
  resources_id: string;
  /** The same statistics over validation rollouts only (mode `val`). */
  val: Summary;
  first_time: number;
}

export interface TimeBucket {
  /** Bucket start (Unix seconds). */
  time: number;
  finished: number;
  failed: number;
  /** Finished rollouts per minute in this bucket. */
  throughput: number;
  /** Failed / finished, null when nothing finished. */
  failure_rate: number | null;
  reward: Summary;
}

export interface Progress {
  /** Finished rollouts with a reward, by end time: [time, reward, rollout id]. */
  points: { time: number; reward: number; rollout_id: string; resources_id: string | null }[];
  /** Mean reward of the last `window` rewarded rollouts at each point. */
  rolling: { time: number; mean: number }[];
  versions: VersionStats[];
  buckets: TimeBucket[];
  bucket_seconds: number;
  totals: {
    rollouts: number;
    finished: number;
    failed: number;
    running: number;
    queued: number;
    failure_rate: number | null;
    /** Finished rollouts per minute over the whole run. */
    throughput: number | null;
    reward: Summary;
  };
}

const BUCKETS = 30;

/** Reward over time, per resources version, throughput and failure rate of a set of rollouts. */
export function computeProgress(
  rollouts: readonly Rollout[],
  rewards: ReadonlyMap<string, number | null>,
  window = 20,
): Progress {
  const finished = rollouts
    .filter((r) => FINISHED.has(r.status) && r.end_time !== null)
    .sort((a, b) => a.end_time! - b.end_time!);
  const failed = finished.filter((r) => r.status === 'failed');
  const points: Progress['points'] = [];
  for (const r of finished) {
    const reward = rewards.get(r.rollout_id);
    if (typeof reward === 'number') {
      points.push({
        time: r.end_time!,
        reward,
        rollout_id: r.rollout_id,
        resources_id: r.resources_id,
      });
    }
  }
  const rolling: Progress['rolling'] = [];
  let sum = 0;
  points.forEach((p, i) => {
    sum += p.reward;
    if (i >= window) sum -= points[i - window]!.reward;
    rolling.push({ time: p.time, mean: sum / Math.min(i + 1, window) });
  });

  const byVersion = new Map<string, { all: number[]; val: number[]; first: number }>();
  for (const r of rollouts) {
    const id = r.resources_id ?? '(none)';
    let entry = byVersion.get(id);
    if (!entry) {
      entry = { all: [], val: [], first: r.start_time };
      byVersion.set(id, entry);
    }
    entry.first = Math.min(entry.first, r.start_time);
    const reward = rewards.get(r.rollout_id);
    if (typeof reward === 'number' && FINISHED.has(r.status)) {
      entry.all.push(reward);
      if (r.mode === 'val') entry.val.push(reward);
    }
  }
  const versions = [...byVersion.entries()]
    .map(([resources_id, e]) => ({
      resources_id,
      ...summarize(e.all),
      val: summarize(e.val),
      first_time: e.first,
    }))
    .sort((a, b) => a.first_time - b.first_time);

  const start = finished.length > 0 ? Math.min(...rollouts.map((r) => r.start_time)) : 0;
  const end = finished.length > 0 ? finished.at(-1)!.end_time! : 0;
  const span = Math.max(1, end - start);
  const bucketSeconds = niceBucket(span / BUCKETS);
  const buckets: TimeBucket[] = [];
  if (finished.length > 0) {
    const first = Math.floor(start / bucketSeconds) * bucketSeconds;
    const count = Math.floor((end - first) / bucketSeconds) + 1;
    const rewardsIn: number[][] = Array.from({ length: count }, () => []);
    for (let i = 0; i < count; i++) {
      buckets.push({
        time: first + i * bucketSeconds,
        finished: 0,
        failed: 0,
        throughput: 0,
        failure_rate: null,
        reward: summarize([]),
      });
    }
    for (const r of finished) {
      const b = buckets[Math.floor((r.end_time! - first) / bucketSeconds)]!;
      b.finished += 1;
      if (r.status === 'failed') b.failed += 1;
    }
    for (const p of points) rewardsIn[Math.floor((p.time - first) / bucketSeconds)]!.push(p.reward);
    buckets.forEach((b, i) => {
      b.throughput = (b.finished * 60) / bucketSeconds;
      b.failure_rate = b.finished > 0 ? b.failed / b.finished : null;
      b.reward = summarize(rewardsIn[i]!);
    });
  }
  return {
    points,
    rolling,
    versions,
    buckets,
    bucket_seconds: bucketSeconds,
    totals: {
      rollouts: rollouts.length,
      finished: finished.length,
      failed: failed.length,
      running: rollouts.filter((r) => r.status === 'running' || r.status === 'preparing').length,
      queued: rollouts.filter((r) => r.status === 'queuing' || r.status === 'requeuing').length,
      failure_rate: finished.length > 0 ? failed.length / finished.length : null,
      throughput: finished.length > 0 ? (finished.length * 60) / span : null,
      reward: summarize(points.map((p) => p.reward)),
    },
  };
}

/** A readable bucket length (1 s, 2 s, 5 s, 10 s, … 1 h, …) at least `seconds` long. */
export function niceBucket(seconds: number): number {
  const steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 86400];
  return steps.find((s) => s >= seconds) ?? Math.ceil(seconds / 86400) * 86400;
}
