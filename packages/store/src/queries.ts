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

type SpanFilterColumn = Exclude<(typeof SPAN_FILTER_FIELDS)[number], `${string}_contains`>;

/** Each span filter as the column it tests and how: exact, or substring for `*_contains`. */
const SPAN_FILTERS = SPAN_FILTER_FIELDS.map((field) => {
  const column = field.replace(/_contains$/, '') as SpanFilterColumn;
  return { field, column, contains: column !== field };
});

/** A query builder of a backend (memory predicates, SQLite or PostgreSQL SQL). */
export interface SpanFilterTarget {
  equals(column: SpanFilterColumn, value: string | null): unknown;
  contains(column: SpanFilterColumn, value: string | null): unknown;
}

/** Adds the span filters of `query` (SPAN_FILTER_FIELDS, in order) to a backend's query builder. */
export function addSpanFilters<C extends SpanFilterTarget>(conditions: C, query: SpanQuery): C {
  for (const { field, column, contains } of SPAN_FILTERS) {
    if (contains) conditions.contains(column, query[field]);
    else conditions.equals(column, query[field]);
  }
  return conditions;
}
