import {
  FINISHED_STATUSES,
  isFinished,
  ROLLOUT_MODES,
  ROLLOUT_STATUSES,
  type Rollout,
  type RolloutMode,
  type RolloutStatus,
  ValidationError,
} from '@arclight/core';

/** Which rollouts of a store are exported. */
export interface RolloutSelection {
  /** Only rollouts of these modes (default: any, including rollouts without a mode). */
  mode?: RolloutMode | RolloutMode[] | null;
  /** Only rollouts in these statuses (default: the finished ones: succeeded, failed, cancelled). */
  rolloutStatus?: RolloutStatus | RolloutStatus[] | null;
  /**
   * Only rollouts started at or after this time: a `Date`, an ISO-8601 string, or an epoch number in seconds
   * (values above 1e11 are taken as milliseconds, above 1e14 as nanoseconds).
   */
  since?: Date | string | number | null;
}

/** Epoch seconds from `since` (see {@link RolloutSelection.since}); throws `ValidationError` if unreadable. */
export function parseSince(since: Date | string | number): number {
  if (since instanceof Date) {
    if (Number.isNaN(since.getTime())) throw new ValidationError('since: invalid Date');
    return since.getTime() / 1000;
  }
  if (typeof since === 'number' || /^\s*\d+(\.\d+)?\s*$/.test(since)) {
    const n = Number(since);
    if (!Number.isFinite(n) || n < 0) {
      throw new ValidationError(`since: expected a non-negative epoch time, got ${String(since)}`);
    }
    if (n > 1e14) return n / 1e9;
    if (n > 1e11) return n / 1e3;
    return n;
  }
  const ms = Date.parse(since);
  if (Number.isNaN(ms)) {
    throw new ValidationError(
      `since: expected an ISO-8601 date or an epoch number, got ${JSON.stringify(since)}`,
    );
  }
  return ms / 1000;
}

function listOf<T extends string>(
  name: string,
  value: T | T[] | null | undefined,
  allowed: readonly T[],
): T[] | null {
  if (value === undefined || value === null) return null;
  const list = Array.isArray(value) ? value : [value];
  for (const item of list) {
    if (!allowed.includes(item)) {
      throw new ValidationError(
        `${name}: unknown value ${JSON.stringify(item)}; expected one of ${allowed.join(', ')}`,
      );
    }
  }
  return list;
}

/** A compiled selection: `reason(rollout)` is null for rollouts to export, else the skip reason. */
export function compileSelection(selection: RolloutSelection): (rollout: Rollout) => string | null {
  const modes = listOf('mode', selection.mode, ROLLOUT_MODES);
  const statuses =
    listOf('rolloutStatus', selection.rolloutStatus, ROLLOUT_STATUSES) ?? FINISHED_STATUSES;
  const since =
    selection.since === undefined || selection.since === null ? null : parseSince(selection.since);
  return (rollout) => {
    if (!statuses.includes(rollout.status)) {
      return isFinished(rollout.status) ? 'status' : 'unfinished';
    }
    if (modes && (rollout.mode === null || !modes.includes(rollout.mode))) return 'mode';
    if (since !== null && rollout.start_time < since) return 'since';
    return null;
  };
}
