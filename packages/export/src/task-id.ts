import { createHash } from 'node:crypto';
import type { Rollout } from '@arclight/core';
import type { ExportRecord } from './record.js';

/** Metadata keys that name the task of a rollout, in order of preference. */
export const TASK_ID_METADATA_KEYS = ['task_id', 'data_id'] as const;

/** JSON with object keys sorted, so equal inputs hash equally whatever their key order. */
export function stableStringify(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

/**
 * The task (GRPO group) of a rollout: `metadata.task_id`, else `metadata.data_id` (what upstream's VERL daemon
 * sets), else `"task-"` + the first 16 hex digits of sha256 of the input's key-sorted JSON, so rollouts of the
 * same input share a group.
 */
export function taskIdOf(rollout: Rollout): string {
  const metadata = rollout.metadata ?? {};
  for (const key of TASK_ID_METADATA_KEYS) {
    const value = metadata[key];
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  const digest = createHash('sha256').update(stableStringify(rollout.input)).digest('hex');
  return `task-${digest.slice(0, 16)}`;
}

/** The record's explicit `task_id`, else the one derived from its rollout. */
export const recordTaskId = (record: ExportRecord): string =>
  record.task_id != null && record.task_id !== '' ? record.task_id : taskIdOf(record.rollout);
