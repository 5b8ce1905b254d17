import { findFinalReward } from '@arclight/core';
import type { AttemptedRollout, Rollout } from '../model/wire.js';
import type { StoreApi } from './store-api.js';

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);
/** Rewards of finished rollouts never change: one cache per store URL. */
const caches = new Map<string, Map<string, number | null>>();

function cacheFor(api: StoreApi): Map<string, number | null> {
  let cache = caches.get(api.baseUrl);
  if (!cache) {
    cache = new Map();
    caches.set(api.baseUrl, cache);
  }
  return cache;
}

const safeFinalReward = (spans: Parameters<typeof findFinalReward>[0]): number | null => {
  try {
    return findFinalReward(spans);
  } catch {
    return null;
  }
};

/** The final reward of one rollout's latest attempt: reward annotations first, then all spans. */
async function rewardOf(
  api: StoreApi,
  rollout: Rollout | AttemptedRollout,
): Promise<number | null> {
  const attemptId =
    'attempt' in rollout && rollout.attempt ? rollout.attempt.attempt_id : undefined;
  const annotations = await api.spans(rollout.rollout_id, attemptId, 'agentlightning.annotation');
  const reward = safeFinalReward(annotations);
  if (reward !== null || rollout.status !== 'succeeded') return reward;
  return safeFinalReward(await api.spans(rollout.rollout_id, attemptId));
}

/**
 * Rewards of the given rollouts (finished ones; others map to null), fetched 6 at a time and cached. Works on
 * any store: it only reads spans.
 */
export async function loadRewards(
  api: StoreApi,
  rollouts: readonly (Rollout | AttemptedRollout)[],
): Promise<Map<string, number | null>> {
  const cache = cacheFor(api);
  const missing = rollouts.filter((r) => FINISHED.has(r.status) && !cache.has(r.rollout_id));
  let next = 0;
  const worker = async () => {
    while (next < missing.length) {
      const rollout = missing[next++]!;
      cache.set(rollout.rollout_id, await rewardOf(api, rollout));
    }
  };
  await Promise.all(Array.from({ length: Math.min(6, missing.length) }, worker));
  const out = new Map<string, number | null>();
  for (const r of rollouts) out.set(r.rollout_id, cache.get(r.rollout_id) ?? null);
  return out;
}
