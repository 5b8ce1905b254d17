import type { PageQuery, ResourcesQuery, RolloutQuery, SpanQuery, WorkerQuery } from './backend.js';
import { SORTABLE_FIELDS } from './backend.js';
import type {
  QueryAttemptsParams,
  QueryResourcesParams,
  QueryRolloutsParams,
  QuerySpansParams,
  QueryWorkersParams,
} from './lightning-store.js';
import * as p from './params.js';

/** Validated backend queries built from the public query parameters (defaults as upstream). */

export const rolloutQuery = (params: QueryRolloutsParams): RolloutQuery => ({
  ...p.pageQuery(params, SORTABLE_FIELDS.rollouts, null),
  status_in: p.rolloutStatusList(params.status_in),
  rollout_id_in: p.listOf('rollout_id_in', params.rollout_id_in),
  rollout_id_contains: p.optionalString('rollout_id_contains', params.rollout_id_contains),
  filter_logic: p.filterLogic(params.filter_logic),
});

export const attemptQuery = (params: QueryAttemptsParams): PageQuery =>
  p.pageQuery(params, SORTABLE_FIELDS.attempts, 'sequence_id');

export const resourcesQuery = (params: QueryResourcesParams): ResourcesQuery => ({
  ...p.pageQuery(params, SORTABLE_FIELDS.resources, null),
  resources_id: p.optionalString('resources_id', params.resources_id),
  resources_id_contains: p.optionalString('resources_id_contains', params.resources_id_contains),
});

export const workerQuery = (params: QueryWorkersParams): WorkerQuery => ({
  ...p.pageQuery(params, SORTABLE_FIELDS.workers, null),
  status_in: p.workerStatusList(params.status_in),
  worker_id_contains: p.optionalString('worker_id_contains', params.worker_id_contains),
  filter_logic: p.filterLogic(params.filter_logic),
});

/** `attempt_id` may still be `'latest'` here; the store resolves it inside its read. */
export function spanQuery(rolloutId: string, params: QuerySpansParams): SpanQuery {
  const query: SpanQuery = {
    ...p.pageQuery(params, SORTABLE_FIELDS.spans, 'sequence_id'),
    rollout_id: p.requireString('rollout_id', rolloutId),
    attempt_id: p.optionalString('attempt_id', params.attempt_id),
    filter_logic: p.filterLogic(params.filter_logic),
    trace_id: null,
    trace_id_contains: null,
    span_id: null,
    span_id_contains: null,
    parent_id: null,
    parent_id_contains: null,
    name: null,
    name_contains: null,
  };
  for (const field of SPAN_FILTER_FIELDS) query[field] = p.optionalString(field, params[field]);
  return query;
}

/** The span filters of `querySpans` besides rollout and attempt (each exact or `_contains`). */
export const SPAN_FILTER_FIELDS = [
  'trace_id',
  'trace_id_contains',
  'span_id',
  'span_id_contains',
  'parent_id',
  'parent_id_contains',
  'name',
  'name_contains',
] as const;
