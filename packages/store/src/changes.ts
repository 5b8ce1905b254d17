import { type Attempt, normalizeRolloutConfig, type Rollout } from '@arclight/core';
import type { UpdateAttemptParams, UpdateRolloutParams } from './lightning-store.js';
import * as p from './params.js';

/**
 * Validated field changes of an update. A key that is absent (or undefined) in the parameters stays absent
 * (upstream's UNSET: left unchanged); `null` is kept as an explicit clear.
 */

export function rolloutChanges(params: UpdateRolloutParams): Partial<Rollout> {
  const changes: Partial<Rollout> = {};
  if (params.input !== undefined) changes.input = params.input;
  if (params.mode !== undefined) changes.mode = p.mode(params.mode);
  if (params.resources_id !== undefined) {
    changes.resources_id = p.optionalString('resources_id', params.resources_id);
  }
  if (params.status !== undefined) changes.status = p.rolloutStatus(params.status);
  if (params.config !== undefined) changes.config = normalizeRolloutConfig(params.config);
  if (params.metadata !== undefined)
    changes.metadata = p.optionalRecord('metadata', params.metadata);
  return changes;
}

export function attemptChanges(params: UpdateAttemptParams): Partial<Attempt> {
  const changes: Partial<Attempt> = {};
  if (params.status !== undefined) changes.status = p.attemptStatus(params.status);
  if (params.worker_id !== undefined)
    changes.worker_id = p.optionalString('worker_id', params.worker_id);
  if (params.last_heartbeat_time !== undefined) {
    changes.last_heartbeat_time = p.optionalNumber(
      'last_heartbeat_time',
      params.last_heartbeat_time,
    );
  }
  if (params.metadata !== undefined)
    changes.metadata = p.optionalRecord('metadata', params.metadata);
  return changes;
}
