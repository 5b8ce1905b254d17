import type {
  Attempt,
  ResourcesUpdate,
  Rollout,
  RolloutConfig,
  Span,
  Worker,
} from '@arclight/core';

/**
 * How `MemoryBackend` copies records in and out (see the copy policy at the top of
 * memory-backend.ts): a fresh top-level object per record, fresh copies of the small record-state
 * objects the store updates (`config`, `metadata`, `heartbeat_stats`, the `resources` name map), and
 * shared references to payloads (`Rollout.input`, the resource instances, everything in a span).
 */

/** Deep copy of JSON-like data: plain objects and arrays are copied, any other value is shared. */
export function clonePlain<V>(value: V): V {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(clonePlain) as V;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    out[key] = clonePlain((value as Record<string, unknown>)[key]);
  return out as V;
}

const copyConfig = (config: RolloutConfig): RolloutConfig =>
  config == null
    ? config
    : {
        ...config,
        retry_condition: Array.isArray(config.retry_condition)
          ? [...config.retry_condition]
          : config.retry_condition,
      };

export const copyRollout = (rollout: Rollout): Rollout => ({
  ...rollout,
  config: copyConfig(rollout.config),
  metadata: clonePlain(rollout.metadata),
});

export const copyAttempt = (attempt: Attempt): Attempt => ({
  ...attempt,
  metadata: clonePlain(attempt.metadata),
});

export const copyWorker = (worker: Worker): Worker => ({
  ...worker,
  heartbeat_stats: clonePlain(worker.heartbeat_stats),
});

export const copyResources = (update: ResourcesUpdate): ResourcesUpdate => ({
  ...update,
  resources: { ...update.resources },
});

/** Spans are immutable once stored: only the top level is copied. */
export const copySpan = (span: Span): Span => ({ ...span });
